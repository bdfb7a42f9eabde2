// The received requests, one row each; a row expands to every header and the body. Which rows are
// open is kept by id, so the 2-second refresh does not fold them back.
import { Fragment, useState } from 'react';
import { formatTime } from '../../lib/format.ts';
import { RequestDetail } from './request-detail.tsx';
import { SignatureBadge } from './signature-badge.tsx';
import type { InboxRequest } from './types.ts';

export function InboxTable({ requests }: { requests: InboxRequest[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Requests received by the local inbox, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Received</th>
            <th scope="col">Method</th>
            <th scope="col">Path</th>
            <th scope="col">Event type</th>
            <th scope="col">Webhook id</th>
            <th scope="col">Signature</th>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {requests.map((r) => {
            const isOpen = open.has(r.id);
            const detailId = `inbox-detail-${r.id}`;
            return (
              <Fragment key={r.id}>
                <tr className={isOpen ? 'inbox-row-open' : undefined}>
                  <td className="inbox-nowrap">
                    <time dateTime={new Date(r.received_at).toISOString()}>
                      {formatTime(r.received_at / 1000)}
                    </time>
                  </td>
                  <td>{r.method}</td>
                  <td className="mono inbox-nowrap">{r.path}</td>
                  <td>{r.headers['x-event-type'] ?? '—'}</td>
                  <td className="mono inbox-id">{r.headers['webhook-id'] ?? '—'}</td>
                  <td>
                    <SignatureBadge signature={r.signature} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button small"
                      aria-expanded={isOpen}
                      aria-controls={isOpen ? detailId : undefined}
                      onClick={() => toggle(r.id)}
                    >
                      {isOpen ? 'Hide' : 'Show'}
                      <span className="visually-hidden"> request {r.id}</span>
                    </button>
                  </td>
                </tr>
                {isOpen && (
                  <tr className="inbox-detail-row">
                    <td colSpan={7} id={detailId}>
                      <RequestDetail request={r} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
