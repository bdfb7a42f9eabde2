// One event: its facts, the payload (pretty and exactly as stored), every delivery attempt, the
// original it replays, and Replay. While it is still on its way the page polls, so a test event is seen
// turning DELIVERED.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { apiWithText, api } from '../../api.ts';
import { StatusBadge, TestBadge } from '../../components/badges.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PayloadView } from '../../components/payload-view.tsx';
import { ErrorNotice, Loading } from '../../components/status.tsx';
import { formatBytes, formatTime } from '../../lib/format.ts';
import { rawMember } from '../../lib/raw-json.ts';
import type { EventDetail } from '../../types.ts';
import { useAllTargets } from '../targets/queries.ts';
import { AttemptTimeline } from './attempts.tsx';

const settled = new Set(['DELIVERED', 'FAILED', 'EXPIRED', 'REPLAYED']);

function Payload({ event, raw }: { event: EventDetail; raw: string | null }) {
  if (event.payload === null && raw === 'null')
    return <p className="muted">The payload is no longer stored (past retention).</p>;
  return (
    <PayloadView
      pretty={JSON.stringify(event.payload, null, 2)}
      raw={raw}
      exactLabel={`Exact bytes (${formatBytes(event.payload_size)})`}
    />
  );
}

export function EventDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const event = useQuery({
    queryKey: ['events', 'one', id],
    queryFn: async ({ signal }) => {
      const r = await apiWithText<EventDetail>(`/api/v1/events/${encodeURIComponent(id)}`, { signal });
      return { event: r.data, raw: rawMember(r.text, 'payload') };
    },
    refetchInterval: (q) => (q.state.data && !settled.has(q.state.data.event.status) ? 1500 : false),
  });
  const targets = useAllTargets();
  const replay = useMutation({
    mutationFn: () =>
      api<{ id: string }>(`/api/v1/events/${encodeURIComponent(id)}/replay`, { method: 'POST' }),
    onSuccess: async (r) => {
      await qc.invalidateQueries({ queryKey: ['events'] });
      void navigate(`/events/${r.id}`);
    },
  });
  if (event.isPending)
    return (
      <>
        <PageHeader title="Event" />
        <Loading />
      </>
    );
  if (event.error)
    return (
      <>
        <PageHeader title="Event" />
        <ErrorNotice error={event.error} />
        <p>
          <Link to="/events">Back to events</Link>
        </p>
      </>
    );
  const e = event.data.event;
  const target = targets.data?.find((t) => t.id === e.target_id);
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/events">Events</Link> <span aria-hidden="true">/</span>{' '}
        <span className="mono">{e.id}</span>
      </nav>
      <PageHeader
        title="Event"
        subtitle={
          <>
            <StatusBadge status={e.status} /> {e.test && <TestBadge />} <span className="mono">{e.id}</span>
          </>
        }
        actions={
          <button
            type="button"
            className="button primary"
            onClick={() => replay.mutate()}
            disabled={replay.isPending}
          >
            {replay.isPending ? 'Replaying…' : 'Replay'}
          </button>
        }
      />
      <ErrorNotice error={replay.error} />
      {e.source_event_id && (
        <p className="notice info" role="note">
          This event is a replay of <Link to={`/events/${e.source_event_id}`}>event {e.source_event_id}</Link>
          .
        </p>
      )}
      <section className="card section" aria-labelledby="facts-heading">
        <h2 id="facts-heading">Details</h2>
        <dl className="pairs columns">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={e.status} />
            {e.final_reason && <span className="muted"> {e.final_reason}</span>}
          </dd>
          <dt>Event type</dt>
          <dd>{e.event_type ?? '—'}</dd>
          <dt>Target</dt>
          <dd>
            <Link to={`/targets/${e.target_id}`}>{target?.name ?? e.target_id}</Link> ({e.kind})
          </dd>
          <dt>Correlation ID</dt>
          <dd className="mono">{e.correlation_id ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{formatTime(e.created_at)}</dd>
          <dt>Attempts</dt>
          <dd>{e.attempt_count}</dd>
          {e.next_attempt_at && (
            <>
              <dt>Next attempt</dt>
              <dd>{formatTime(e.next_attempt_at)}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="card section" aria-labelledby="payload-heading">
        <h2 id="payload-heading">Payload</h2>
        <Payload event={e} raw={event.data.raw} />
      </section>
      <section className="card section" aria-labelledby="attempts-heading">
        <h2 id="attempts-heading">Delivery attempts</h2>
        <AttemptTimeline attempts={e.delivery_attempts} pending={!settled.has(e.status)} />
      </section>
    </>
  );
}
