// The organization and its rename. A rename refreshes every cached answer, since the name shows
// elsewhere too (the header reads it from the session).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { ErrorNotice, Loading } from '../../components/status.tsx';
import { formatTime } from '../../lib/format.ts';
import type { Organization } from '../../types.ts';
import { useOrg } from './queries.ts';

export function OrgSection() {
  const org = useOrg();
  return (
    <section className="card section" aria-labelledby="org-heading">
      <h2 id="org-heading">Organization</h2>
      {org.isPending ? (
        <Loading label="Loading the organization…" />
      ) : org.isError ? (
        <ErrorNotice error={org.error} />
      ) : (
        <>
          <dl className="pairs">
            <dt>Name</dt>
            <dd>{org.data.org.name}</dd>
            <dt>Slug</dt>
            <dd>
              <code>{org.data.org.slug}</code>
            </dd>
            <dt>Id</dt>
            <dd>
              <code>{org.data.org.id}</code>
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(org.data.org.created_at)}</dd>
          </dl>
          <RenameForm org={org.data.org} />
        </>
      )}
    </section>
  );
}

function RenameForm({ org }: { org: Organization }) {
  const [name, setName] = useState(org.name);
  const [done, setDone] = useState(false);
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: (newName: string) =>
      api<{ updated: true }>('/api/v1/orgs', { method: 'PATCH', body: { name: newName } }),
    onSuccess: () => {
      setDone(true);
      return queryClient.invalidateQueries();
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    rename.reset();
    rename.mutate(name);
  };

  return (
    <form className="org-form" onSubmit={submit}>
      <div className="org-field">
        <label htmlFor="org-name">Organization name</label>
        <input
          id="org-name"
          name="name"
          type="text"
          required
          maxLength={200}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setDone(false);
          }}
        />
      </div>
      <button type="submit" className="button primary" disabled={rename.isPending}>
        {rename.isPending ? 'Renaming…' : 'Rename'}
      </button>
      <p role="status" className="org-status">
        {done ? 'Renamed.' : ''}
      </p>
      <div className="org-error">
        <ErrorNotice error={rename.error} />
      </div>
    </form>
  );
}
