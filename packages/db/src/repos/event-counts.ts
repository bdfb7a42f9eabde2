// Exact event counts read from the counter tables the triggers of migration
// 2026-11-27T1030-event-counts keep: a total or a stats read adds up a few hundred rows however many
// events there are. Every read stops at the retention boundary (a UTC day), as the lists do.
import { sql, type RawBuilder } from 'kysely';
import { eventStatuses, type EventStatus } from '@evds/domain';
import type { Db } from '../database.ts';
import type { EventFilter } from './events.ts';

const DAY = 86_400_000;
const QUARTER = 900_000;
const column = (s: EventStatus) => sql.ref(s.toLowerCase());
const allColumns = sql.raw(eventStatuses.map((s) => s.toLowerCase()).join(' + '));

/**
 * The number of visible events matching `filter`, or undefined when no counter answers it (a
 * correlation id, or a status with an event type): the caller counts those rows instead.
 */
export async function countedTotal(
  db: Db,
  orgId: string,
  filter: EventFilter,
  visibleFrom: Date,
): Promise<number | undefined> {
  const { endpointId, status, eventType, correlationId } = filter;
  if (correlationId !== undefined) return undefined;
  const counted = status ? column(status) : allColumns;
  let q: RawBuilder<{ n: string | null }>;
  if (eventType !== undefined) {
    if (status) return undefined;
    q = sql`select sum(n) as n from event_type_counts
             where org_id = ${orgId} and event_type = ${eventType} and day >= ${visibleFrom}
               ${endpointId ? sql`and target_id = ${endpointId}` : sql``}`;
  } else if (endpointId !== undefined)
    q = sql`select sum(${counted}) as n from event_target_counts
             where org_id = ${orgId} and target_id = ${endpointId} and day >= ${visibleFrom}`;
  else
    q = sql`select sum(${counted}) as n from event_rollup
             where org_id = ${orgId} and grain = 86400 and bucket >= ${visibleFrom}`;
  const r = await q.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Visible events created from `since` (rounded down to 15 minutes) to now, by their status now: the
 * quarter-hour rows of the partial days at both ends and the day rows in between. Returns the start
 * actually counted from.
 */
export async function eventStatusCounts(
  db: Db,
  orgId: string,
  since: Date,
  now: Date,
): Promise<{ since: Date; byStatus: Record<EventStatus, number> }> {
  const from = new Date(Math.floor(since.getTime() / QUARTER) * QUARTER);
  const firstDay = new Date(Math.ceil(from.getTime() / DAY) * DAY);
  const today = new Date(Math.floor(now.getTime() / DAY) * DAY);
  const sums = sql.raw(
    eventStatuses.map((s) => `coalesce(sum(${s.toLowerCase()}), 0)::bigint as "${s}"`).join(', '),
  );
  const r = await sql<Record<EventStatus, string>>`
    select ${sums} from event_rollup
     where org_id = ${orgId}
       and (${
         firstDay < today
           ? sql`(grain = 900 and bucket >= ${from} and bucket < ${firstDay})
                 or (grain = 86400 and bucket >= ${firstDay} and bucket < ${today})
                 or (grain = 900 and bucket >= ${today})`
           : sql`grain = 900 and bucket >= ${from}`
       })`.execute(db);
  const row = r.rows[0];
  const byStatus = Object.fromEntries(eventStatuses.map((s) => [s, Number(row?.[s] ?? 0)])) as Record<
    EventStatus,
    number
  >;
  return { since: from, byStatus };
}
