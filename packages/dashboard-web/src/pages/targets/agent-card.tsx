// An a2a target's cached Agent Card interface, and reading the card again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { ErrorNotice } from '../../components/status.tsx';
import { formatTime } from '../../lib/format.ts';
import type { A2aTarget } from '../../types.ts';
import { targetsKey } from './queries.ts';

export function AgentCardPanel({ target }: { target: A2aTarget }) {
  const qc = useQueryClient();
  const refresh = useMutation({
    mutationFn: () => api<{ warnings: string[] }>(`/api/v1/targets/${target.id}/refresh`, { method: 'POST' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: targetsKey }),
  });
  const i = target.interface;
  return (
    <section className="card section" aria-labelledby="card-heading">
      <h2 id="card-heading">Agent Card</h2>
      <dl className="pairs">
        <dt>Interface URL</dt>
        <dd className="mono break">{i?.url ?? '—'}</dd>
        <dt>Binding</dt>
        <dd>{i ? `${i.binding} ${i.version}` : '—'}</dd>
        {i?.tenant && (
          <>
            <dt>Tenant</dt>
            <dd className="mono">{i.tenant}</dd>
          </>
        )}
        <dt>Card read</dt>
        <dd>{formatTime(target.card_fetched_at)}</dd>
      </dl>
      <ErrorNotice error={refresh.error} />
      {refresh.data && (
        <p className="notice success" role="status">
          Agent Card read again.
          {refresh.data.warnings.length > 0 && ` Warnings: ${refresh.data.warnings.join('; ')}`}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="button"
          onClick={() => refresh.mutate()}
          disabled={refresh.isPending}
        >
          Refresh Agent Card
        </button>
      </div>
    </section>
  );
}
