// API keys: the list (prefix only), creation with the key shown once, and deletion behind a
// confirmation. The API's guards (last key, key in use, the cap, billing) are shown as it words them.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../../api.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/status.tsx';
import { formatAgo, formatTime } from '../../lib/format.ts';
import { CreateKeyForm } from './create-key-form.tsx';
import { DeleteKeyDialog } from './delete-key-dialog.tsx';
import { keysQueryKey, type ApiKey } from './types.ts';
import './keys.css';

export default function KeysPage() {
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const keys = useQuery({
    queryKey: keysQueryKey,
    queryFn: ({ signal }) => api<{ keys: ApiKey[] }>('/api/v1/keys', { signal }),
    retry: (n, e) => n < 2 && !(e instanceof ApiError && e.status < 500),
  });

  return (
    <>
      <PageHeader
        title="API keys"
        subtitle={
          <span>
            Services send items with <code>Authorization: Bearer &lt;key&gt;</code> and consume mailboxes with
            it. A key is shown once, when it is created; afterwards only its prefix.
          </span>
        }
      />
      <CreateKeyForm />
      <section className="section" aria-labelledby="keys-list-heading">
        <h2 id="keys-list-heading">Keys</h2>
        {keys.isPending ? (
          <Loading label="Loading API keys…" />
        ) : keys.isError ? (
          <ErrorNotice error={keys.error} />
        ) : keys.data.keys.length === 0 ? (
          <Empty>This workspace has no API key yet. Create one above.</Empty>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.keys.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td className="mono">{k.prefix}…</td>
                    <td>{formatTime(k.created_at)}</td>
                    <td>
                      {k.last_used_at === null ? (
                        <span className="muted">Never</span>
                      ) : (
                        <time
                          dateTime={new Date(k.last_used_at * 1000).toISOString()}
                          title={formatTime(k.last_used_at)}
                        >
                          {formatAgo(k.last_used_at)}
                        </time>
                      )}
                    </td>
                    <td className="keys-actions">
                      <button type="button" className="button small" onClick={() => setDeleting(k)}>
                        Delete<span className="visually-hidden"> key {k.name}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {deleting && <DeleteKeyDialog apiKey={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}
