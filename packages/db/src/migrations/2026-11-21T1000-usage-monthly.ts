// A monthly rollup of the usage ledger, so GET /api/v1/usage reads a few counters instead of counting
// an organization's records: with 1,000,000 records in one month (bench/usage.ts), counting them over
// usage_org_created took 68-185 ms (median; p99 up to 376 ms), the rollup read takes 0.3 ms.
//
// Statement-level triggers on usage_records keep it exact, in the same transaction as the ledger rows.
// A busy organization's ingest transactions would all queue on one counter row, so each (org, month)
// is split into SHARDS rows picked by the backend process id; a read sums them. Inserts add to their
// shard; updates (reported_at being set) and deletes adjust whichever shard row exists. A delete only
// updates (never inserts), so deleting an organization, which cascades to both tables, cannot recreate
// a row of the organization it is deleting.
import { sql, type Kysely } from 'kysely';

const SHARDS = 64;
const month = (col: string) => sql.raw(`date_trunc('month', ${col}, 'UTC')`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_monthly')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // The first instant of the calendar month (UTC).
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('shard', 'smallint', (c) => c.notNull())
    .addColumn('accepted_events', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reported_events', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_monthly_pk', ['org_id', 'period_start', 'shard'])
    .execute();

  await sql`
    create function usage_monthly_apply() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        insert into usage_monthly as m (org_id, period_start, shard, accepted_events, reported_events)
        select org_id, ${month('created_at')}, pg_backend_pid() % ${sql.lit(SHARDS)}, count(*), count(reported_at)
          from new_rows group by 1, 2 order by 1, 2
        on conflict (org_id, period_start, shard) do update
          set accepted_events = m.accepted_events + excluded.accepted_events,
              reported_events = m.reported_events + excluded.reported_events;
        return null;
      end if;

      if tg_op = 'UPDATE' then
        -- The net change per (org, month), added to the lowest existing shard (0 when there is none,
        -- which only an update moving a record to another month could cause; the service never does).
        insert into usage_monthly as m (org_id, period_start, shard, accepted_events, reported_events)
        select d.org_id, d.p,
               coalesce((select min(s.shard) from usage_monthly s
                          where s.org_id = d.org_id and s.period_start = d.p), 0),
               d.a, d.r
          from (select org_id, p, sum(a) as a, sum(r) as r from (
                  select org_id, ${month('created_at')} as p, 1 as a, (reported_at is not null)::int as r
                    from new_rows
                  union all
                  select org_id, ${month('created_at')}, -1, -(reported_at is not null)::int from old_rows
                ) x group by 1, 2 having sum(a) <> 0 or sum(r) <> 0) d
         order by 1, 2
        on conflict (org_id, period_start, shard) do update
          set accepted_events = m.accepted_events + excluded.accepted_events,
              reported_events = m.reported_events + excluded.reported_events;
        return null;
      end if;

      -- DELETE: update only, so a cascade from a deleted organization cannot insert its rows again.
      update usage_monthly as m
         set accepted_events = m.accepted_events - d.a,
             reported_events = m.reported_events - d.r
        from (select org_id, ${month('created_at')} as p, count(*) as a, count(reported_at) as r
                from old_rows group by 1, 2) d
       where m.org_id = d.org_id and m.period_start = d.p
         and m.shard = (select min(s.shard) from usage_monthly s
                         where s.org_id = d.org_id and s.period_start = d.p);
      return null;
    end
    $fn$`.execute(db);

  // The lock makes the backfill below and the triggers see the same set of committed records.
  await sql`lock table usage_records in share row exclusive mode`.execute(db);
  await sql`create trigger usage_monthly_insert after insert on usage_records
    referencing new table as new_rows for each statement execute function usage_monthly_apply()`.execute(db);
  await sql`create trigger usage_monthly_update after update on usage_records
    referencing old table as old_rows new table as new_rows
    for each statement execute function usage_monthly_apply()`.execute(db);
  await sql`create trigger usage_monthly_delete after delete on usage_records
    referencing old table as old_rows for each statement execute function usage_monthly_apply()`.execute(db);
  await sql`
    insert into usage_monthly (org_id, period_start, shard, accepted_events, reported_events)
    select org_id, ${month('created_at')}, 0, count(*), count(reported_at) from usage_records group by 1, 2`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['usage_monthly_insert', 'usage_monthly_update', 'usage_monthly_delete'])
    await sql`drop trigger if exists ${sql.raw(t)} on usage_records`.execute(db);
  await sql`drop function if exists usage_monthly_apply()`.execute(db);
  await db.schema.dropTable('usage_monthly').ifExists().execute();
}
