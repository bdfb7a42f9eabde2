// One mailbox's messages, oldest first, filtered by state; the state and the open message live in the
// address (?state=&message=), so a reload or a shared link shows the same view.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../api.ts';
import { Empty, ErrorNotice, Loading } from '../../components/status.tsx';
import { formatBytes, formatTime, shortId } from '../../lib/format.ts';
import { MessageDetail } from './message-detail.tsx';
import { StateBadge } from './state-badge.tsx';
import { useKeyNames } from './use-key-names.ts';
import { messageStates, type MessagePage, type MessageState } from './types.ts';
import { retryTransient } from './use-mailboxes.ts';

const PAGE = 50;

const isState = (s: string | null): s is MessageState => messageStates.some((x) => x === s);

export function MailboxMessages({ mailboxId, name }: { mailboxId: string; name: string }) {
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const state = isState(stateParam) ? stateParam : undefined;
  const openId = params.get('message');
  const keyName = useKeyNames();

  const messages = useInfiniteQuery({
    queryKey: ['mailbox-messages', mailboxId, state ?? 'all'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const q = new URLSearchParams({ limit: String(PAGE) });
      if (state) q.set('status', state);
      if (pageParam) q.set('after', pageParam);
      return api<MessagePage>(`/api/v1/mailboxes/${encodeURIComponent(mailboxId)}/messages?${q}`, { signal });
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    retry: retryTransient,
  });

  const update = (changes: Record<string, string | null>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) next.delete(k);
        else next.set(k, v);
      }
      return next;
    });

  const rows = messages.data?.pages.flatMap((p) => p.messages) ?? [];

  return (
    <>
      <section className="section" aria-labelledby="mbx-messages-heading">
        <div className="section-head">
          <h2 id="mbx-messages-heading">Messages in {name}</h2>
          <div className="actions">
            <label htmlFor="mbx-state">State</label>
            <select
              id="mbx-state"
              className="mbx-select"
              value={state ?? ''}
              onChange={(e) => update({ state: e.target.value || null, message: null })}
            >
              <option value="">All states</option>
              {messageStates.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button"
              onClick={() => void messages.refetch()}
              disabled={messages.isFetching}
            >
              Refresh
            </button>
          </div>
        </div>
        {messages.isPending ? (
          <Loading label="Loading messages…" />
        ) : messages.isError ? (
          <ErrorNotice error={messages.error} />
        ) : rows.length === 0 ? (
          <Empty>
            {state ? `No ${state} messages in this mailbox.` : 'This mailbox has no messages yet.'} Items sent
            to <code>POST /t/{mailboxId}</code> with an API key arrive here.
          </Empty>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">
                Messages{state ? ` in state ${state}` : ''}, oldest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Message</th>
                  <th scope="col">Received</th>
                  <th scope="col">State</th>
                  <th scope="col">Event type</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Claimed by</th>
                  <th scope="col">Lease expires</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((m) => (
                  <tr key={m.id} className={m.id === openId ? 'mbx-open' : undefined}>
                    <td>
                      <button
                        type="button"
                        className="link-button mono"
                        title={m.id}
                        aria-pressed={m.id === openId}
                        onClick={() => update({ message: m.id === openId ? null : m.id })}
                      >
                        <span className="visually-hidden">Message </span>
                        {shortId(m.id)}
                      </button>
                    </td>
                    <td>{formatTime(m.created_at)}</td>
                    <td>
                      <StateBadge state={m.state} />
                    </td>
                    <td>{m.event_type ?? '—'}</td>
                    <td className="num">{formatBytes(m.payload_size)}</td>
                    <td>
                      {m.claimed_by_key_id ? (
                        <span title={m.claimed_by_key_id}>
                          {keyName(m.claimed_by_key_id) ?? (
                            <span className="mono">{shortId(m.claimed_by_key_id)}</span>
                          )}
                        </span>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>{formatTime(m.lease_expires_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {messages.hasNextPage && (
          <div className="actions mbx-more">
            <button
              type="button"
              className="button"
              onClick={() => void messages.fetchNextPage()}
              disabled={messages.isFetchingNextPage}
            >
              {messages.isFetchingNextPage ? 'Loading…' : 'Load more messages'}
            </button>
          </div>
        )}
      </section>
      {openId && <MessageDetail id={openId} onClose={() => update({ message: null })} />}
    </>
  );
}
