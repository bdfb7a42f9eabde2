// One message as GET /api/v1/mailbox-messages/:id answers it: the claim and lease, and the payload
// both pretty-printed and as the exact bytes accepted (the API splices them into its answer).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiWithText } from '../../api.ts';
import { PayloadView } from '../../components/payload-view.tsx';
import { ErrorNotice, Loading } from '../../components/status.tsx';
import { formatBytes, formatTime } from '../../lib/format.ts';
import { rawMember } from '../../lib/raw-json.ts';
import { StateBadge } from './state-badge.tsx';
import type { MailboxMessage } from './types.ts';
import { useKeyNames } from './use-key-names.ts';
import { retryTransient } from './use-mailboxes.ts';

export function MessageDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const keyName = useKeyNames();
  const q = useQuery({
    queryKey: ['mailbox-message', id],
    queryFn: async ({ signal }) => {
      const r = await apiWithText<{ message: MailboxMessage }>(
        `/api/v1/mailbox-messages/${encodeURIComponent(id)}`,
        { signal },
      );
      const message = rawMember(r.text, 'message');
      return { message: r.data.message, raw: message === null ? null : rawMember(message, 'payload') };
    },
    retry: retryTransient,
  });
  // Opening a message moves keyboard focus to it, so a keyboard user lands on what they asked for.
  useEffect(() => heading.current?.focus(), [id]);

  const m = q.data?.message;
  const holder = m?.claimed_by_key_id;
  return (
    <section className="card section" aria-labelledby="mbx-detail-heading">
      <div className="section-head">
        <h2 id="mbx-detail-heading" ref={heading} tabIndex={-1}>
          Message <span className="mono">{id}</span>
        </h2>
        <button type="button" className="button small" onClick={onClose}>
          Close
        </button>
      </div>
      {q.isPending ? (
        <Loading label="Loading the message…" />
      ) : q.isError ? (
        <ErrorNotice error={q.error} />
      ) : m ? (
        <>
          <dl className="pairs columns">
            <dt>State</dt>
            <dd>
              <StateBadge state={m.state} />
            </dd>
            <dt>Event type</dt>
            <dd>{m.event_type ?? '—'}</dd>
            <dt>Received</dt>
            <dd>{formatTime(m.created_at)}</dd>
            <dt>Correlation ID</dt>
            <dd className="mono">{m.correlation_id ?? '—'}</dd>
            <dt>Claimed by</dt>
            <dd>
              {holder ? (
                <>
                  {keyName(holder) ?? 'API key'} <span className="mono small">{holder}</span>
                </>
              ) : (
                '—'
              )}
            </dd>
            <dt>Claimed at</dt>
            <dd>{formatTime(m.claimed_at)}</dd>
            <dt>Lease expires</dt>
            <dd>{formatTime(m.lease_expires_at)}</dd>
            <dt>Acknowledged at</dt>
            <dd>{formatTime(m.acknowledged_at)}</dd>
            <dt>Retention ends</dt>
            <dd>{formatTime(m.expires_at)}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(m.payload_size)}</dd>
          </dl>
          <h3 className="mbx-payload-heading">Payload</h3>
          {m.payload === null ? (
            <p className="muted">The payload is gone: the message is past retention (EXPIRED).</p>
          ) : (
            <PayloadView pretty={JSON.stringify(m.payload, null, 2)} raw={q.data.raw} Heading="h4" />
          )}
        </>
      ) : null}
    </section>
  );
}
