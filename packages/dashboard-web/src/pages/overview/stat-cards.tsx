// The headline numbers of /api/v1/stats, and the events-by-status and mailbox tables.
import { Link } from 'react-router';
import { Empty } from '../../components/status.tsx';
import { formatCount, formatMs, formatPercent } from '../../lib/format.ts';
import { eventStatuses, type Stats } from '../../types.ts';
import { StatusBadge } from '../../components/badges.tsx';

function Card({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <span className="stat-value">{value}</span>
        {detail && <span className="stat-detail">{detail}</span>}
      </dd>
    </div>
  );
}

export function StatCards({ stats }: { stats: Stats }) {
  const backlog = stats.mailboxes.UNREAD + stats.mailboxes.CLAIMED;
  return (
    <dl className="stats">
      <Card
        label="Success rate"
        value={formatPercent(stats.success_rate)}
        detail={`${formatCount(stats.attempts.succeeded)} of ${formatCount(stats.attempts.total)} attempts`}
      />
      <Card label="Latency p50" value={formatMs(stats.latency_ms.p50)} detail="median attempt" />
      <Card label="Latency p95" value={formatMs(stats.latency_ms.p95)} />
      <Card label="Latency p99" value={formatMs(stats.latency_ms.p99)} />
      <Card label="Events" value={formatCount(stats.events.total)} detail="accepted in the window" />
      <Card
        label="Mailbox backlog"
        value={formatCount(backlog)}
        detail={`${formatCount(stats.mailboxes.UNREAD)} unread, ${formatCount(stats.mailboxes.CLAIMED)} claimed`}
      />
    </dl>
  );
}

export function StatusTable({ stats }: { stats: Stats }) {
  if (stats.events.total === 0 && stats.attempts.total === 0)
    return (
      <Empty>
        No events in this window yet. Open <Link to="/targets">Targets</Link> and use “Send test event” to see
        one delivered.
      </Empty>
    );
  return (
    <table className="table compact">
      <caption className="visually-hidden">Events by status</caption>
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col" className="num">
            Events
          </th>
        </tr>
      </thead>
      <tbody>
        {eventStatuses.map((s) => (
          <tr key={s}>
            <td>
              <Link to={`/events?status=${s}`} className="plain">
                <StatusBadge status={s} />
              </Link>
            </td>
            <td className="num">{formatCount(stats.events.by_status[s] ?? 0)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
