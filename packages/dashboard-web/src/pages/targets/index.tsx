// Targets: every target of the organization, filterable by kind, paged with the API's cursor; the
// create form opens above the list.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api.ts';
import { HealthBadge, KindBadge } from '../../components/badges.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Segmented } from '../../components/segmented.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/status.tsx';
import { formatAgo, formatTime } from '../../lib/format.ts';
import type { Target, TargetKind } from '../../types.ts';
import { CreateTarget } from './create-target.tsx';
import { targetsKey } from './queries.ts';

const PAGE = 50;
type KindFilter = 'all' | TargetKind;
const kindOptions = [
  { value: 'all', label: 'All' },
  { value: 'webhook', label: 'Webhook' },
  { value: 'mailbox', label: 'Mailbox' },
  { value: 'a2a', label: 'A2A' },
] as const;

function destination(t: Target): string {
  switch (t.kind) {
    case 'webhook':
      return t.url;
    case 'mailbox':
      return 'Pull queue (read with an API key)';
    case 'a2a':
      return t.agent_card_url ?? t.url ?? '';
  }
}

export function TargetsPage() {
  const [kind, setKind] = useState<KindFilter>('all');
  const [creating, setCreating] = useState(false);
  const list = useInfiniteQuery({
    queryKey: [...targetsKey, 'pages'],
    queryFn: ({ pageParam, signal }) =>
      api<{ targets: Target[]; next_cursor?: string | null }>(
        `/api/v1/targets?limit=${PAGE}${pageParam ? `&after=${pageParam}` : ''}`,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const all = list.data?.pages.flatMap((p) => p.targets) ?? [];
  const shown = kind === 'all' ? all : all.filter((t) => t.kind === kind);
  return (
    <>
      <PageHeader
        title="Targets"
        subtitle="Where accepted items go: webhooks, mailboxes and A2A agents"
        actions={
          !creating && (
            <button type="button" className="button primary" onClick={() => setCreating(true)}>
              New target
            </button>
          )
        }
      />
      {creating && <CreateTarget onClose={() => setCreating(false)} />}
      <section aria-labelledby="list-heading" className="section">
        <div className="section-head">
          <h2 id="list-heading">All targets</h2>
          <Segmented label="Filter by kind" options={kindOptions} value={kind} onChange={setKind} />
        </div>
        {list.isPending ? (
          <Loading />
        ) : list.error ? (
          <ErrorNotice error={list.error} />
        ) : shown.length === 0 ? (
          <Empty>
            {all.length === 0 ? 'No targets yet. Create one with “New target”.' : 'No targets of this kind.'}
          </Empty>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Targets</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Destination</th>
                  <th scope="col">Health</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <Link to={`/targets/${t.id}`}>{t.name}</Link>
                    </td>
                    <td>
                      <KindBadge kind={t.kind} />
                    </td>
                    <td className="truncate mono">{destination(t)}</td>
                    <td>
                      <HealthBadge health={t.health} enabled={t.enabled} />
                    </td>
                    <td title={formatTime(t.created_at)}>{formatAgo(t.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.hasNextPage && (
          <button
            type="button"
            className="button"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
          >
            {list.isFetchingNextPage ? 'Loading…' : 'Load more targets'}
          </button>
        )}
      </section>
    </>
  );
}
