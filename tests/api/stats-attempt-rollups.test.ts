// Proves attempt_rollups (the counters GET /api/v1/stats and /stats/timeseries read) against the raw
// delivery_attempts rows, in a real Postgres: after inserts from several connections at once (different
// backend pids, so several shard rows per bucket), every grain's counts and histograms equal a count over
// the raw rows, and updates and deletes keep them so; attemptStats moves `since` back to a multiple of
// 15 minutes and counts exactly the attempts from there; its percentiles are within the stated resolution
// of percentile_cont over the same rows; another organization's attempts never count; pruning removes
// only buckets that ended before the boundary.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { attemptStats, createDb, LATENCY_RESOLUTION, pruneAttemptRollups, type Db } from '@evds/db';
import { newId } from '@evds/domain';
import { createTestDatabase, seedWorkspace, type TestDatabase } from '@evds/testkit';
import { sql } from 'kysely';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(async () => {
  await database.drop();
});

const MIN = 60_000;
const DAY = 86_400_000;

/** n attempts of the organization spread over the last `spanMs`, with varied outcomes and durations. */
async function insertAttempts(on: Db, orgId: string, n: number, spanMs: number, seed: number): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: n }, (_, i) => {
    const k = seed * 7919 + i * 104729;
    return {
      id: newId(),
      event_id: newId(),
      org_id: orgId,
      target_id: 't',
      attempt_number: 1,
      status_code: k % 9 === 0 ? 500 : k % 13 === 0 ? null : 200,
      error: k % 13 === 0 || k % 17 === 0 ? 'refused' : null,
      duration_ms: Math.floor(Math.exp((k % 997) / 110)),
      attempted_at: new Date(now - ((k * 31) % spanMs)),
      response_body: null,
      a2a_task_id: null,
      a2a_task_state: null,
    };
  });
  for (let i = 0; i < rows.length; i += 200)
    await on
      .insertInto('delivery_attempts')
      .values(rows.slice(i, i + 200))
      .execute();
}

/** Rollup rows and raw rows, per grain and bucket, side by side; only mismatches are returned. */
async function mismatches(orgId: string) {
  const r = await sql<{ grain: number; bucket: Date }>`
    with raw as (
      select g.s as grain, date_bin(g.s * interval '1 second', a.attempted_at, timestamptz 'epoch') as bucket,
             count(*) filter (where a.status_code between 200 and 299 and a.error is null) as ok,
             count(*) filter (where not coalesce(a.status_code between 200 and 299 and a.error is null, false)) as bad,
             attempt_latency_bucket(a.duration_ms) as i, count(*) as n
        from delivery_attempts a cross join (values (900), (3600), (86400)) g(s)
       where a.org_id = ${orgId} group by 1, 2, i),
    raw_b as (select grain, bucket, sum(ok) ok, sum(bad) bad,
                     array_agg(array[i::bigint, n] order by i) hist from raw group by 1, 2),
    roll as (select grain_seconds as grain, bucket_start as bucket, sum(succeeded) ok, sum(failed) bad,
                    array[${sql.raw(Array.from({ length: 160 }, (_, i) => `sum(latency[${i + 1}])`).join(', '))}]::bigint[] as h
               from attempt_rollups where org_id = ${orgId} group by 1, 2),
    roll_b0 as (select grain, bucket, ok, bad,
                       (select array_agg(array[k - 1, x] order by k) from unnest(h) with ordinality u(x, k) where x <> 0) hist
                  from roll),
    -- A bucket whose attempts were all deleted keeps its rows at zero: the same as no rows.
    roll_b as (select * from roll_b0 where not (ok = 0 and bad = 0 and hist is null))
    select coalesce(a.grain, b.grain) as grain, coalesce(a.bucket, b.bucket) as bucket
      from raw_b a full join roll_b b on a.grain = b.grain and a.bucket = b.bucket
     where a.ok is distinct from b.ok or a.bad is distinct from b.bad or a.hist is distinct from b.hist`.execute(
    db,
  );
  return r.rows;
}

/** percentile_cont over the raw rows of the organization from `since`. */
async function exactPercentiles(orgId: string, since: Date) {
  const r = await sql<{ p50: number; p95: number; p99: number }>`
    select percentile_cont(0.5) within group (order by duration_ms) p50,
           percentile_cont(0.95) within group (order by duration_ms) p95,
           percentile_cont(0.99) within group (order by duration_ms) p99
      from delivery_attempts where org_id = ${orgId} and attempted_at >= ${since}`.execute(db);
  return r.rows[0];
}

describe('attempt_rollups', () => {
  it('equals a count over the raw rows after concurrent inserts from several connections, and after updates and deletes', async () => {
    const ws = await seedWorkspace(db);
    const conns = Array.from({ length: 6 }, () => createDb({ url: database.url, poolSize: 1 }));
    try {
      await Promise.all(conns.map((c, k) => insertAttempts(c, ws.orgId, 1200, 3 * DAY, k)));
    } finally {
      await Promise.all(conns.map((c) => c.destroy()));
    }
    const shards = await sql<{ n: number }>`
      select max(c)::int as n from (select count(*) c from attempt_rollups where org_id = ${ws.orgId}
                                    group by grain_seconds, bucket_start) x`.execute(db);
    expect(shards.rows[0]?.n).toBeGreaterThan(1);
    expect(await mismatches(ws.orgId)).toEqual([]);

    await sql`update delivery_attempts set duration_ms = duration_ms * 3 + 1, status_code = 503
               where org_id = ${ws.orgId} and id in (select id from delivery_attempts where org_id = ${ws.orgId} limit 50)`.execute(
      db,
    );
    await sql`delete from delivery_attempts
               where org_id = ${ws.orgId} and id in (select id from delivery_attempts where org_id = ${ws.orgId} offset 100 limit 70)`.execute(
      db,
    );
    expect(await mismatches(ws.orgId)).toEqual([]);
  }, 60_000);
});

describe('attemptStats', () => {
  it('starts at the 15-minute boundary at or before since and counts exactly the attempts from there', async () => {
    const ws = await seedWorkspace(db);
    const other = await seedWorkspace(db);
    const q = 15 * MIN;
    const boundary = (Math.floor(Date.now() / q) - 16) * q;
    const at = (ms: number, status: number | null, duration: number, error: string | null = null) => ({
      id: newId(),
      event_id: newId(),
      org_id: ws.orgId,
      target_id: 't',
      attempt_number: 1,
      status_code: status,
      duration_ms: duration,
      attempted_at: new Date(ms),
      response_body: null,
      error,
      a2a_task_id: null,
      a2a_task_state: null,
    });
    await db
      .insertInto('delivery_attempts')
      .values([
        at(boundary - 1, 200, 10), // before the aligned start: not counted
        at(boundary, 200, 20), // the boundary instant: counted
        at(boundary + 5 * MIN, 500, 30),
        at(boundary + 3 * 3_600_000, 200, 40, 'not an A2A answer'),
        at(Date.now() - 1000, 204, 50),
      ])
      .execute();
    await db
      .insertInto('delivery_attempts')
      .values({ ...at(boundary + MIN, 200, 99_999), org_id: other.orgId })
      .execute();

    const s = await attemptStats(db, ws.orgId, new Date(boundary + 7 * MIN));
    expect(s.since.getTime()).toBe(boundary);
    expect(s.attempts).toEqual({ total: 4, succeeded: 2, failed: 2 });
    const none = await attemptStats(db, ws.orgId, new Date(Date.now() + 3_600_000));
    expect(none).toMatchObject({
      attempts: { total: 0, succeeded: 0, failed: 0 },
      latencyMs: { p50: null, p95: null, p99: null },
    });
    expect((await attemptStats(db, other.orgId, new Date(boundary))).attempts.total).toBe(1);
  });

  it('answers percentiles within the stated resolution of percentile_cont, for windows from an hour to 30 days', async () => {
    const ws = await seedWorkspace(db);
    const other = await seedWorkspace(db);
    await insertAttempts(db, ws.orgId, 3000, 29 * DAY, 1);
    await insertAttempts(db, ws.orgId, 300, 50 * MIN, 2);
    await insertAttempts(db, other.orgId, 500, 29 * DAY, 3);
    for (const back of [3_600_000, DAY, 7 * DAY, 30 * DAY]) {
      const s = await attemptStats(db, ws.orgId, new Date(Date.now() - back));
      const exact = await exactPercentiles(ws.orgId, s.since);
      const raw = await sql<{ n: number }>`select count(*)::int n from delivery_attempts
                                            where org_id = ${ws.orgId} and attempted_at >= ${s.since}`.execute(
        db,
      );
      expect(s.attempts.total).toBe(raw.rows[0]?.n);
      for (const p of ['p50', 'p95', 'p99'] as const) {
        const want = exact?.[p] ?? NaN;
        const got = s.latencyMs[p] ?? NaN;
        // Within the resolution of (exact + 1 ms), and half a millisecond of rounding.
        expect([back, p, Math.abs(got - want) <= LATENCY_RESOLUTION * (want + 1) + 0.5]).toEqual([
          back,
          p,
          true,
        ]);
      }
    }
  }, 60_000);
});

describe('pruneAttemptRollups', () => {
  it('deletes, in batches, the rows of buckets that ended at or before the boundary, and nothing after', async () => {
    const ws = await seedWorkspace(db);
    await insertAttempts(db, ws.orgId, 800, 6 * DAY, 4);
    // 02:30 UTC three days ago: that day's row and the hour row from 02:00 are still open there.
    const day = Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 150 * MIN;
    const before = await sql<{ n: number }>`select count(*)::int n from attempt_rollups
      where org_id = ${ws.orgId} and bucket_start + grain_seconds * interval '1 second' <= ${new Date(day)}`.execute(
      db,
    );
    const kept = await sql<{
      n: number;
    }>`select count(*)::int n from attempt_rollups where org_id = ${ws.orgId}
      and bucket_start + grain_seconds * interval '1 second' > ${new Date(day)}`.execute(db);
    expect(before.rows[0]?.n).toBeGreaterThan(10);
    const deleted = await pruneAttemptRollups(db, new Date(day), 7);
    expect(deleted).toBeGreaterThanOrEqual(before.rows[0]?.n ?? 0);
    const left = await sql<{ old: number; all: number }>`select
        count(*) filter (where bucket_start + grain_seconds * interval '1 second' <= ${new Date(day)})::int old,
        count(*)::int all from attempt_rollups where org_id = ${ws.orgId}`.execute(db);
    expect(left.rows[0]).toEqual({ old: 0, all: kept.rows[0]?.n });
    // Rows still open at the boundary stay whole: stats from the boundary remain exact.
    const s = await attemptStats(db, ws.orgId, new Date(day));
    const raw = await sql<{ n: number }>`select count(*)::int n from delivery_attempts
      where org_id = ${ws.orgId} and attempted_at >= ${new Date(day)}`.execute(db);
    expect(s.attempts.total).toBe(raw.rows[0]?.n);
  });
});
