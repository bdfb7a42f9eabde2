// Proves that GET /api/v1/stats/timeseries reads only the calling organization's rollup rows: with 100k
// attempts of another organization and 40 of its own, EXPLAIN ANALYZE of the very statement the route
// runs touches no delivery_attempts at all, reads attempt_rollups through its primary key only, and
// exactly the organization's hour rows (one per hour it attempted in, per shard), none filtered out
// afterwards; the route then counts exactly its 40.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { attemptTimeseriesQuery } from '@evds/db';
import { startTestApi, type TestApi } from '@evds/testkit';
import { sql } from 'kysely';
import { addAttempts, workspaceWithEvent, type Series } from './stats-timeseries-kit.ts';
import { planNodes, type PlanNode } from './plan-kit.ts';

const HOUR = 3600;
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

describe('the statement', () => {
  it("reads only the organization's rollup rows through their key, among 100k attempts of another organization", async () => {
    const db = api.database.db;
    const mine = await workspaceWithEvent(api);
    const others = await workspaceWithEvent(api);
    await sql`
      insert into delivery_attempts (id, event_id, org_id, target_id, attempt_number, status_code, duration_ms, attempted_at)
      select 'da_' || md5(g::text), ${others.event}, ${others.ws.orgId}, ${others.target}, 1,
             case when g % 10 = 0 then 500 else 200 end, g % 1000, now() - (g % 86400) * interval '1 second'
      from generate_series(1, 100000) g`.execute(db);
    const now = Date.now();
    await addAttempts(
      api,
      mine,
      Array.from({ length: 40 }, (_, i) => ({ atMs: now - i * 60_000, durationMs: i, statusCode: 200 })),
    );
    await sql`analyze delivery_attempts, attempt_rollups`.execute(db);

    const b = HOUR;
    const last = Math.floor(now / 1000 / b) * b;
    const query = attemptTimeseriesQuery(mine.ws.orgId, { since: last - 24 * b, last, bucketSeconds: b });
    const explained = await sql<{
      'QUERY PLAN': [{ Plan: PlanNode }];
    }>`explain (analyze, format json) ${query}`.execute(db);
    const plan = explained.rows[0]?.['QUERY PLAN'][0].Plan;
    if (!plan) throw new Error('no plan');
    const all = planNodes(plan);
    expect(all.filter((n) => n['Relation Name']?.startsWith('delivery_attempts'))).toEqual([]);
    const scans = all.filter((n) => n['Relation Name'] === 'attempt_rollups');
    expect(scans).toHaveLength(1);
    expect(['Index Scan', 'Bitmap Heap Scan']).toContain(scans[0]?.['Node Type']);
    const indexNodes = all.filter((n) => n['Index Name'] !== undefined);
    expect(indexNodes.map((n) => n['Index Name'])).toEqual(['attempt_rollups_pk']);
    const mineRows = await sql<{ n: number }>`select count(*)::int as n from attempt_rollups
      where org_id = ${mine.ws.orgId} and grain_seconds = 3600`.execute(db);
    expect(mineRows.rows[0]?.n).toBeGreaterThan(0);
    for (const n of [...scans, ...indexNodes]) {
      expect((n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1)).toBe(mineRows.rows[0]?.n);
      expect(n['Rows Removed by Filter'] ?? 0).toBe(0);
      expect(n['Rows Removed by Index Recheck'] ?? 0).toBe(0);
    }
    // And the answer counts exactly those 40.
    const r = await api.request<Series>('/api/v1/stats/timeseries', { key: mine.ws.apiKey });
    expect(r.body.buckets.reduce((n, x) => n + x.succeeded + x.failed, 0)).toBe(40);
  }, 60_000);
});
