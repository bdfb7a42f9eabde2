// Rotation: the new secret is shown once; until the previous one is dropped, deliveries carry both
// signatures so receivers can switch over without missing one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { SecretOnce } from '../../components/secret-once.tsx';
import { ErrorNotice } from '../../components/status.tsx';
import type { WebhookTarget } from '../../types.ts';
import { targetsKey } from './queries.ts';

export function SigningSecretPanel({ target }: { target: WebhookTarget }) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: targetsKey });
  const rotate = useMutation({
    mutationFn: () =>
      api<{ secret: string }>(`/api/v1/targets/${target.id}/signing-secret/rotate`, { method: 'POST' }),
    onSuccess: refresh,
  });
  const drop = useMutation({
    mutationFn: () => api(`/api/v1/targets/${target.id}/signing-secret/previous`, { method: 'DELETE' }),
    onSuccess: () => {
      rotate.reset();
      return refresh();
    },
  });
  return (
    <section className="card section" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      <p>
        Deliveries are signed with Standard Webhooks (HMAC-SHA256).{' '}
        {target.has_previous_signing_secret
          ? 'A rotation is under way: each delivery carries a signature with the current secret and one with the previous secret.'
          : 'One secret is in use.'}
      </p>
      {rotate.data && <SecretOnce title="New signing secret" secret={rotate.data.secret} />}
      <ErrorNotice error={rotate.error ?? drop.error} />
      <div className="actions">
        <button type="button" className="button" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
          Rotate secret
        </button>
        <button
          type="button"
          className="button"
          onClick={() => drop.mutate()}
          disabled={!target.has_previous_signing_secret || drop.isPending}
        >
          Drop previous secret
        </button>
      </div>
    </section>
  );
}
