// Events: newest first, with the API's four filters and offset paging. The filters and the page live in
// the address, so a link (e.g. from a target, or the overview's status table) opens the same view.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api.ts';
import { StatusBadge, TestBadge } from '../../components/badges.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Empty, ErrorNotice, Loading } from '../../components/status.tsx';
import { formatAgo, formatCount, formatTime, shortId } from '../../lib/format.ts';
import type { EventSummary } from '../../types.ts';
import { useAllTargets } from '../targets/queries.ts';
import { EventFilters, filterKeys } from './filters.tsx';

const PAGE = 50;

interface EventPage {
  events: EventSummary[];
  total: number;
  limit: number;
  offset: number;
}

export function EventsPage() {
  const [params, setParams] = useSearchParams();
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  for (const k of filterKeys) {
    const v = params.get(k);
    if (v) query.set(k, v);
  }
  const events = useQuery({
    queryKey: ['events', query.toString()],
    queryFn: ({ signal }) => api<EventPage>(`/api/v1/events?${query}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const targets = useAllTargets();
  const names = new Map((targets.data ?? []).map((t) => [t.id, t.name]));
  const filtered = filterKeys.some((k) => params.get(k));
  const goTo = (next: number) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (next > 0) n.set('offset', String(next));
      else n.delete('offset');
      return n;
    });
  const page = events.data;
  return (
    <>
      <PageHeader title="Events" subtitle="Every accepted event and its delivery, newest first" />
      <EventFilters targets={targets.data ?? []} />
      <section aria-labelledby="events-heading" className="section">
        <h2 id="events-heading" className="visually-hidden">
          Event list
        </h2>
        {events.isPending ? (
          <Loading />
        ) : events.error ? (
          <ErrorNotice error={events.error} />
        ) : !page || page.events.length === 0 ? (
          <Empty>
            {filtered
              ? 'No events match these filters.'
              : 'No events yet. Send a test event from a target, or ingest one with an API key.'}
          </Empty>
        ) : (
          <>
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">Events</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Type</th>
                    <th scope="col">Target</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {page.events.map((e) => (
                    <tr key={e.id}>
                      <td>
                        {/* The whole id is the link's name; CSS shortens what is seen. */}
                        <Link to={`/events/${e.id}`} className="mono id-link" title={e.id}>
                          {e.id}
                        </Link>{' '}
                        {e.test && <TestBadge />}
                      </td>
                      <td>{e.event_type ?? <span className="muted">none</span>}</td>
                      <td>
                        <Link to={`/targets/${e.endpoint_id}`}>
                          {names.get(e.endpoint_id) ?? shortId(e.endpoint_id)}
                        </Link>
                      </td>
                      <td>
                        <StatusBadge status={e.status} />
                      </td>
                      <td title={formatTime(e.created_at)}>{formatAgo(e.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav className="pager" aria-label="Pages">
              <p>
                {formatCount(page.offset + 1)}–{formatCount(page.offset + page.events.length)} of{' '}
                {formatCount(page.total)}
              </p>
              <button
                type="button"
                className="button"
                disabled={offset === 0}
                onClick={() => goTo(Math.max(0, offset - PAGE))}
              >
                Previous page
              </button>
              <button
                type="button"
                className="button"
                disabled={page.offset + page.events.length >= page.total}
                onClick={() => goTo(offset + PAGE)}
              >
                Next page
              </button>
            </nav>
          </>
        )}
      </section>
    </>
  );
}
