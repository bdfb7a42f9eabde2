// The attempt timeline: each try with its answer (status code, body) or why none came (error).
import { Empty } from '../../components/status.tsx';
import { formatMs, formatTime } from '../../lib/format.ts';
import type { Attempt } from '../../types.ts';

function outcome(a: Attempt): { tone: string; text: string } {
  if (a.status_code !== null && a.status_code >= 200 && a.status_code < 300)
    return { tone: 'success', text: `${a.status_code}` };
  if (a.status_code !== null) return { tone: 'danger', text: `${a.status_code}` };
  return { tone: 'danger', text: 'No answer' };
}

export function AttemptTimeline({ attempts, pending }: { attempts: Attempt[]; pending: boolean }) {
  if (attempts.length === 0)
    return (
      <Empty>
        {pending ? 'No attempt yet: the delivery is on its way.' : 'No delivery attempt was made.'}
      </Empty>
    );
  return (
    <ol className="timeline">
      {attempts.map((a) => {
        const o = outcome(a);
        return (
          <li key={a.id} className={`attempt ${o.tone}`}>
            <div className="attempt-head">
              <span className={`badge ${o.tone}`}>{o.text}</span>
              <strong>Attempt {a.attempt_number}</strong>
              <span className="muted">{formatTime(a.attempted_at)}</span>
              <span className="muted">{formatMs(a.duration_ms)}</span>
            </div>
            <dl className="pairs">
              <dt>Status code</dt>
              <dd>{a.status_code ?? '—'}</dd>
              <dt>Duration</dt>
              <dd>{a.duration_ms} ms</dd>
              {a.error && (
                <>
                  <dt>Error</dt>
                  <dd className="error-text">{a.error}</dd>
                </>
              )}
              {a.retry_after && (
                <>
                  <dt>Retry-After</dt>
                  <dd>{a.retry_after}</dd>
                </>
              )}
              {a.next_attempt_at && (
                <>
                  <dt>Next attempt</dt>
                  <dd>{formatTime(a.next_attempt_at)}</dd>
                </>
              )}
              {a.a2a_task_id && (
                <>
                  <dt>A2A task</dt>
                  <dd className="mono">
                    {a.a2a_task_id} {a.a2a_task_state && `(${a.a2a_task_state})`}
                  </dd>
                </>
              )}
            </dl>
            <p className="label">Response body</p>
            <pre
              className="code small"
              tabIndex={0}
              aria-label={`Response body of attempt ${a.attempt_number}`}
            >
              {a.response_body === null || a.response_body === '' ? '(empty)' : a.response_body}
            </pre>
          </li>
        );
      })}
    </ol>
  );
}
