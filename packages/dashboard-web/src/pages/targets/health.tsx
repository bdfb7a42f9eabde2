// A target's delivery health as the API reports it: failing run, last success and failure, circuit.
import { formatTime } from '../../lib/format.ts';
import type { Target } from '../../types.ts';

const circuitText = {
  closed: 'Closed: deliveries flow',
  open: 'Open: deliveries wait for the cooldown',
  half_open: 'Half open: one probe is under way',
} as const;

export function HealthPanel({ target }: { target: Target }) {
  const h = target.health;
  return (
    <section className="card section" aria-labelledby="health-heading">
      <h2 id="health-heading">Health</h2>
      <dl className="pairs">
        <dt>Status</dt>
        <dd>{h.status === 'unknown' ? 'No attempt yet' : h.status === 'healthy' ? 'Healthy' : 'Failing'}</dd>
        <dt>Last success</dt>
        <dd>{formatTime(h.last_success_at)}</dd>
        <dt>Last failure</dt>
        <dd>{formatTime(h.last_failure_at)}</dd>
        {h.failing_since !== null && (
          <>
            <dt>Failing since</dt>
            <dd>{formatTime(h.failing_since)}</dd>
          </>
        )}
        <dt>Failures in a row</dt>
        <dd>{h.consecutive_failures}</dd>
        {target.kind !== 'mailbox' && (
          <>
            <dt>Circuit</dt>
            <dd>
              {h.circuit === null ? 'Not known now' : circuitText[h.circuit]}
              {h.next_probe_at !== null && <> (next probe {formatTime(h.next_probe_at)})</>}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
