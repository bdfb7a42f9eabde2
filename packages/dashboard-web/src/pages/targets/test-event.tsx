// "Send test event": a sample item through the real pipeline (POST /api/v1/targets/:id/test). It is
// marked as a test and writes no usage. The answer's id is the event (webhook, a2a) or the mailbox
// message, so the link goes to where its delivery can be watched.
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api.ts';
import { ErrorNotice } from '../../components/status.tsx';
import type { Target, TestEventResult } from '../../types.ts';

export function TestEventPanel({ target }: { target: Target }) {
  const send = useMutation({
    mutationFn: () => api<TestEventResult>(`/api/v1/targets/${target.id}/test`, { method: 'POST' }),
  });
  const r = send.data;
  return (
    <section className="card section" aria-labelledby="test-heading">
      <h2 id="test-heading">Test event</h2>
      <p>
        Send a sample item through the real pipeline to see it{' '}
        {target.kind === 'mailbox' ? 'arrive' : 'delivered'}. Test events are marked as such and never counted
        as usage.
      </p>
      <ErrorNotice error={send.error} />
      {r && (
        <p className="notice success" role="status">
          Test {target.kind === 'mailbox' ? 'message' : 'event'} accepted ({r.status}).{' '}
          {r.kind === 'mailbox' ? (
            <Link to={`/mailboxes/${target.id}?message=${r.id}`}>View the message in the mailbox</Link>
          ) : (
            <Link to={`/events/${r.id}`}>View the event</Link>
          )}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="button primary"
          onClick={() => send.mutate()}
          disabled={send.isPending}
        >
          {send.isPending ? 'Sending…' : 'Send test event'}
        </button>
      </div>
    </section>
  );
}
