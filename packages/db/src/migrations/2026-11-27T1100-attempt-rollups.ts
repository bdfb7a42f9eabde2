// Rollups of delivery attempts, so GET /api/v1/stats and GET /api/v1/stats/timeseries read a few
// hundred counter rows instead of an organization's attempts of the window (seconds at 10 million).
//
// attempt_rollups holds, per organization, grain and bucket, the attempts that started in the bucket:
// succeeded (2xx and no error) and failed, and a histogram of duration_ms. Grains: 15 minutes (the
// finest bucket the time series offers, and the alignment of every window start), 1 hour (the 1h and
// 6h buckets) and 1 day (the 1d buckets, and the bulk of a 7d or 30d total). A window [since, now) is
// then at most 3 quarter rows + 23 hour rows + 30 day rows per shard.
//
// The histogram has 160 fixed log-spaced buckets: duration d falls in i = floor(ln(d + 1) / ln 1.1),
// so bucket i holds d + 1 in [1.1^i, 1.1^(i+1)) and its geometric middle 1.1^(i+0.5) - 1 is within
// 4.9% of (d + 1) for every d in it. The last bucket (i = 159, from about 63 minutes) takes every
// longer duration; attempts end well before that (DELIVERY_TIMEOUT_MS).
//
// Statement-level triggers keep it exact, in the same transaction as the attempts. Every worker writes
// into the buckets of now, so each (org, grain, bucket) is split into SHARDS rows picked by the backend
// process id and a read sums them (as usage_monthly does). 16 shards: the writers are the delivery and
// a2a workers' pooled connections (10 each by default), and a read's cost grows with the shard rows
// it sums. Deletes and updates (the service does neither; partitions are dropped whole, which fires no
// trigger) only adjust the lowest existing shard row, never insert one, so deleting an organization
// cannot recreate its rows.
import { sql, type Kysely } from 'kysely';

const SHARDS = 16;
const HIST = 160;
const RATIO = 1.1;
const GRAINS = [900, 3600, 86400];

/** The rows of one transition table aggregated per (org, grain, bucket): counts and histogram. */
const delta = (rows: string) =>
  sql.raw(`
  select org_id, grain_seconds, bucket_start, sum(n)::bigint as n, sum(ok)::bigint as ok,
         attempt_latency_histogram(array_agg(i), array_agg(n)) as latency
    from (select r.org_id, g.s as grain_seconds,
                 date_bin(g.s * interval '1 second', r.attempted_at, timestamptz '1970-01-01 00:00:00+00') as bucket_start,
                 attempt_latency_bucket(r.duration_ms) as i, count(*) as n,
                 count(*) filter (where r.status_code between 200 and 299 and r.error is null) as ok
            from ${rows} r cross join (values ${GRAINS.map((g) => `(${g})`).join(', ')}) g(s)
           group by 1, 2, 3, 4) x
   group by 1, 2, 3`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attempt_rollups')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('grain_seconds', 'integer', (c) => c.notNull())
    // The first instant of the bucket: a multiple of grain_seconds in Unix time (a day starts 00:00 UTC).
    .addColumn('bucket_start', 'timestamptz', (c) => c.notNull())
    .addColumn('shard', 'smallint', (c) => c.notNull())
    .addColumn('succeeded', 'bigint', (c) => c.notNull())
    .addColumn('failed', 'bigint', (c) => c.notNull())
    .addColumn('latency', sql`bigint[]`, (c) => c.notNull())
    .addPrimaryKeyConstraint('attempt_rollups_pk', ['org_id', 'grain_seconds', 'bucket_start', 'shard'])
    .execute();
  // Pruning walks by age across organizations.
  await db.schema
    .createIndex('attempt_rollups_bucket')
    .on('attempt_rollups')
    .column('bucket_start')
    .execute();

  await sql`
    create function attempt_latency_bucket(d integer) returns integer
    language sql immutable parallel safe
    as $fn$ select least(${sql.lit(HIST - 1)}, floor(ln(greatest(d, 0)::float8 + 1) / ln(${sql.lit(RATIO)})))::integer $fn$`.execute(
    db,
  );
  // A histogram from (bucket, count) pairs.
  await sql`
    create function attempt_latency_histogram(idx integer[], n bigint[]) returns bigint[]
    language plpgsql immutable parallel safe as $fn$
    declare h bigint[] := array_fill(0::bigint, array[${sql.lit(HIST)}]);
    begin
      for k in 1 .. coalesce(array_length(idx, 1), 0) loop
        h[idx[k] + 1] := h[idx[k] + 1] + n[k];
      end loop;
      return h;
    end $fn$`.execute(db);
  await sql`
    create function attempt_latency_add(a bigint[], b bigint[], factor integer) returns bigint[]
    language sql immutable parallel safe
    as $fn$ select array_agg(x + factor * y order by k) from unnest(a, b) with ordinality u(x, y, k) $fn$`.execute(
    db,
  );

  await sql`
    create function attempt_rollups_apply() returns trigger language plpgsql as $fn$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        -- Update only: a cascade from a deleted organization must not insert its rows again.
        update attempt_rollups as m
           set succeeded = m.succeeded - d.ok,
               failed = m.failed - (d.n - d.ok),
               latency = attempt_latency_add(m.latency, d.latency, -1)
          from (${delta('old_rows')}) d
         where m.org_id = d.org_id and m.grain_seconds = d.grain_seconds and m.bucket_start = d.bucket_start
           and m.shard = (select min(s.shard) from attempt_rollups s
                           where s.org_id = d.org_id and s.grain_seconds = d.grain_seconds
                             and s.bucket_start = d.bucket_start);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into attempt_rollups as m (org_id, grain_seconds, bucket_start, shard, succeeded, failed, latency)
        select org_id, grain_seconds, bucket_start, pg_backend_pid() % ${sql.lit(SHARDS)}, ok, n - ok, latency
          from (${delta('new_rows')}) d
         order by 1, 2, 3
        on conflict (org_id, grain_seconds, bucket_start, shard) do update
          set succeeded = m.succeeded + excluded.succeeded,
              failed = m.failed + excluded.failed,
              latency = attempt_latency_add(m.latency, excluded.latency, 1);
      end if;
      return null;
    end
    $fn$`.execute(db);

  // The lock makes the backfill below and the triggers see the same set of committed attempts.
  await sql`lock table delivery_attempts in share row exclusive mode`.execute(db);
  await sql`create trigger attempt_rollups_insert after insert on delivery_attempts
    referencing new table as new_rows for each statement execute function attempt_rollups_apply()`.execute(
    db,
  );
  await sql`create trigger attempt_rollups_update after update on delivery_attempts
    referencing old table as old_rows new table as new_rows
    for each statement execute function attempt_rollups_apply()`.execute(db);
  await sql`create trigger attempt_rollups_delete after delete on delivery_attempts
    referencing old table as old_rows for each statement execute function attempt_rollups_apply()`.execute(
    db,
  );
  // Attempts of an organization that no longer exists have nothing to roll up into.
  await sql`
    insert into attempt_rollups (org_id, grain_seconds, bucket_start, shard, succeeded, failed, latency)
    select org_id, grain_seconds, bucket_start, 0, ok, n - ok, latency
      from (${delta('delivery_attempts')}) d
     where exists (select 1 from organizations o where o.id = d.org_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['attempt_rollups_insert', 'attempt_rollups_update', 'attempt_rollups_delete'])
    await sql`drop trigger if exists ${sql.raw(t)} on delivery_attempts`.execute(db);
  await sql`drop function if exists attempt_rollups_apply()`.execute(db);
  await sql`drop function if exists attempt_latency_add(bigint[], bigint[], integer)`.execute(db);
  await sql`drop function if exists attempt_latency_histogram(integer[], bigint[])`.execute(db);
  await sql`drop function if exists attempt_latency_bucket(integer)`.execute(db);
  await db.schema.dropTable('attempt_rollups').ifExists().execute();
}
