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

const statusColumns = eventStatuses.map((s) => s.toLowerCase());
const compactions = [
  {
    table: 'event_rollup',
    key: ['org_id', 'grain', 'bucket'],
    counters: statusColumns,
    ended: "bucket + grain * interval '1 second'",
  },
  {
    table: 'event_target_counts',
    key: ['org_id', 'target_id', 'day'],
    counters: statusColumns,
    ended: "day + interval '1 day'",
  },
  {
    table: 'event_type_counts',
    key: ['org_id', 'event_type', 'target_id', 'day'],
    counters: ['n'],
    ended: "day + interval '1 day'",
  },
];

/**
 * Folds the shard rows of buckets that ended before `before` into shard 0, `batch` rows per statement
 * (each its own short transaction), so a read of the past adds up one row per bucket whatever the
 * number of writers was. A late change to such a bucket (a retry, a replay) makes a shard row again,
 * folded on a later run; a writer and the fold never lose a count (the fold deletes and adds in one
 * statement, and a writer waiting on a folded row inserts it anew). Returns the rows folded.
 */
export async function compactEventCounts(db: Db, before: Date, batch = 5000): Promise<number> {
  let total = 0;
  for (const c of compactions) {
    const key = c.key.join(', ');
    const sums = c.counters.map((x) => `sum(${x})`).join(', ');
    const add = c.counters.map((x) => `${x} = t.${x} + excluded.${x}`).join(', ');
    for (let n = batch; n === batch;) {
      const r = await sql<{ n: string }>`
        with moved as (
          delete from ${sql.table(c.table)} where ctid = any(array(
            select ctid from ${sql.table(c.table)}
             where shard <> 0 and ${sql.raw(c.ended)} <= ${before} limit ${batch}))
          returning *),
        folded as (
          insert into ${sql.table(c.table)} as t (${sql.raw(key)}, shard, ${sql.raw(c.counters.join(', '))})
          select ${sql.raw(key)}, 0, ${sql.raw(sums)} from moved group by ${sql.raw(key)} order by ${sql.raw(key)}
          on conflict (${sql.raw(key)}, shard) do update set ${sql.raw(add)})
        select count(*) as n from moved`.execute(db);
      n = Number(r.rows[0]?.n ?? 0);
      total += n;
    }
  }
  return total;
}
