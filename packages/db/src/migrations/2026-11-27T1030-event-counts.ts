// Exact event counts that do not grow with the data: the totals of GET /api/v1/events and the event
// side of GET /api/v1/stats read a few counter rows instead of counting millions of events.
//
// Statement-level triggers on events keep three tables exact, in the statement's own transaction:
// - event_rollup: per organization and time bucket (15 minutes and one UTC day), by status;
// - event_target_counts: per target and UTC day, by status;
// - event_type_counts: per target, event type and UTC day.
// Rows are per bucket of the event's creation time; a status change moves one count between columns
// of the row its event was counted in. Each (key, bucket) is split into SHARDS rows picked by the
// backend process id, so concurrent ingest and delivery transactions do not queue on one counter row;
// a read adds them up. Counts by day let record retention forget whole days: a read counts only days
// still visible, exactly the events a list shows (repos/event-counts.ts).
import { sql, type Kysely } from 'kysely';

const SHARDS = 64;
const statuses = ['QUEUED', 'DELIVERED', 'FAILED', 'RETRYING', 'EXPIRED', 'REPLAYED'] as const;
const col = (s: string) => s.toLowerCase();
const counters = statuses.map(col);

const day = `date_trunc('day', d.created_at, 'UTC')`;
const quarter = `date_bin('15 minutes', d.created_at, timestamptz '2001-01-01 00:00:00+00')`;
/** Per status, the sum of the deltas `d.s` of its rows. */
const sums = statuses.map((s) => `coalesce(sum(d.s) filter (where d.status = '${s}'), 0)`);
const byStatus = sums.join(', ');
const byStatusNamed = sums.map((x, i) => `${x} as ${counters[i]}`).join(', ');
const addUp = (t: string) => counters.map((c) => `${c} = ${t}.${c} + excluded.${c}`).join(', ');
const shard = `(pg_backend_pid() % ${SHARDS})::smallint`;

/**
 * The three upserts, as one statement over `d` (org_id, target_id, event_type, created_at, status, s).
 * `netOnly` skips counter rows whose deltas add up to nothing (deltas that may cancel out).
 */
export function applyDeltas(deltas: string, netOnly = false): string {
  const net = netOnly ? `having ${sums.map((x) => `${x} <> 0`).join(' or ')}` : '';
  return `
    with d as (${deltas}),
    r as (
      insert into event_rollup as r (org_id, grain, bucket, shard, ${counters.join(', ')})
      select d.org_id, g.grain, case g.grain when 900 then ${quarter} else ${day} end, ${shard}, ${byStatus}
        from d cross join (values (900), (86400)) as g(grain)
       group by 1, 2, 3 ${net} order by 1, 2, 3
      on conflict (org_id, grain, bucket, shard) do update set ${addUp('r')}),
    t as (
      insert into event_target_counts as t (org_id, target_id, day, shard, ${counters.join(', ')})
      select d.org_id, d.target_id, ${day}, ${shard}, ${byStatus}
        from d group by 1, 2, 3 ${net} order by 1, 2, 3
      on conflict (org_id, target_id, day, shard) do update set ${addUp('t')})
      insert into event_type_counts as y (org_id, event_type, target_id, day, shard, n)
      select d.org_id, d.event_type, d.target_id, ${day}, ${shard}, sum(d.s)
        from d where d.event_type is not null group by 1, 2, 3, 4 having sum(d.s) <> 0 order by 1, 2, 3, 4
      on conflict (org_id, event_type, target_id, day, shard) do update set n = y.n + excluded.n`;
}

export const counted = 'org_id, target_id, event_type, created_at, status';
const moved = `(n.status, n.created_at, n.target_id, n.event_type, n.org_id)
  is distinct from (o.status, o.created_at, o.target_id, o.event_type, o.org_id)`;
/** The update's deltas: the rows whose counted columns changed, +1 as they are now, -1 as they were. */
export const movedRows = `
  select n.org_id, n.target_id, n.event_type, n.created_at, n.status, 1 as s
    from new_rows n join old_rows o on o.id = n.id where ${moved}
  union all
  select o.org_id, o.target_id, o.event_type, o.created_at, o.status, -1
    from old_rows o join new_rows n on n.id = o.id where ${moved}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const cols = counters.map((c) => `${c} bigint not null default 0`).join(', ');
  const org = 'org_id text not null references organizations(id) on delete cascade';
  await sql
    .raw(
      `create table event_rollup (${org}, grain integer not null check (grain in (900, 86400)),
    bucket timestamptz not null, shard smallint not null, ${cols}, primary key (org_id, grain, bucket, shard))`,
    )
    .execute(db);
  await sql
    .raw(
      `create table event_target_counts (${org}, target_id text not null, day timestamptz not null,
    shard smallint not null, ${cols}, primary key (org_id, target_id, day, shard))`,
    )
    .execute(db);
  await sql
    .raw(
      `create table event_type_counts (${org}, event_type text not null, target_id text not null,
    day timestamptz not null, shard smallint not null, n bigint not null default 0,
    primary key (org_id, event_type, target_id, day, shard))`,
    )
    .execute(db);

  const fn = (name: string, body: string) =>
    sql`create function ${sql.id(name)}() returns trigger language plpgsql as ${sql.lit(
      `begin ${body}; return null; end`,
    )}`.execute(db);
  await fn('event_counts_insert', applyDeltas(`select ${counted}, 1 as s from new_rows`));
  await fn('event_counts_update', applyDeltas(movedRows));
  // A delete takes from rows that exist and never adds one: an organization being deleted cascades to
  // its events and its counters alike, and must not get counter rows back.
  await fn(
    'event_counts_delete',
    `
    with d as (select ${counted}, -1 as s from old_rows),
    r as (update event_rollup r set ${counters.map((c) => `${c} = r.${c} + x.${c}`).join(', ')}
      from (select d.org_id, g.grain, case g.grain when 900 then ${quarter} else ${day} end as bucket, ${byStatusNamed}
              from d cross join (values (900), (86400)) as g(grain) group by 1, 2, 3) x
     where r.org_id = x.org_id and r.grain = x.grain and r.bucket = x.bucket
       and r.shard = (select min(s.shard) from event_rollup s
                       where s.org_id = x.org_id and s.grain = x.grain and s.bucket = x.bucket)),
    t as (update event_target_counts t set ${counters.map((c) => `${c} = t.${c} + x.${c}`).join(', ')}
      from (select d.org_id, d.target_id, ${day} as day, ${byStatusNamed} from d group by 1, 2, 3) x
     where t.org_id = x.org_id and t.target_id = x.target_id and t.day = x.day
       and t.shard = (select min(s.shard) from event_target_counts s
                       where s.org_id = x.org_id and s.target_id = x.target_id and s.day = x.day))
    update event_type_counts y set n = y.n + x.n
      from (select d.org_id, d.event_type, d.target_id, ${day} as day, sum(d.s) as n
              from d where d.event_type is not null group by 1, 2, 3, 4) x
     where y.org_id = x.org_id and y.event_type = x.event_type and y.target_id = x.target_id and y.day = x.day
       and y.shard = (select min(s.shard) from event_type_counts s where s.org_id = x.org_id
                       and s.event_type = x.event_type and s.target_id = x.target_id and s.day = x.day)`,
  );

  // The lock makes the backfill and the triggers see the same committed events.
  await sql`lock table events in share row exclusive mode`.execute(db);
  await sql`create trigger event_counts_insert after insert on events
    referencing new table as new_rows for each statement execute function event_counts_insert()`.execute(db);
  await sql`create trigger event_counts_update after update on events
    referencing old table as old_rows new table as new_rows
    for each statement execute function event_counts_update()`.execute(db);
  await sql`create trigger event_counts_delete after delete on events
    referencing old table as old_rows for each statement execute function event_counts_delete()`.execute(db);
  await sql.raw(applyDeltas(`select ${counted}, 1 as s from events`)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.id(`event_counts_${op}`)} on events`.execute(db);
    await sql`drop function if exists ${sql.id(`event_counts_${op}`)}()`.execute(db);
  }
  for (const t of ['event_type_counts', 'event_target_counts', 'event_rollup'])
    await db.schema.dropTable(t).ifExists().execute();
}
