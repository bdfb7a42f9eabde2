// Proves the `total` of GET /api/v1/events stays exact while it is read from counters: for every
// filter (each alone, endpoint + status, endpoint + type, and combinations the counters do not hold),
// after inserts from several connections at once, after status changes, after replays through the
// API, and under record retention: events older than the boundary (00:00 UTC of now - retention) are
// neither listed, counted, shown nor replayed, before and after their partitions are dropped.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compactEventCounts, dropExpiredPartitions, listPartitions } from '@evds/db';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { boundary, countRows, filtersOf, query, seedEvents, type Filter } from './event-store-kit.ts';

const RETENTION = 20 * 86400;
let api: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
const targets: string[] = [];
const otherTargets: string[] = [];

type Page = { events: { id: string; created_at: string }[]; total: number; next_cursor: string | null };

async function webhook(w: TestWorkspace, name: string): Promise<string> {
  const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: w.apiKey,
    body: { kind: 'webhook', name, url: `https://127.0.0.1:9/${name}` },
  });
  expect(r.status).toBe(201);
  return r.body.target.id;
}

const list = (w: TestWorkspace, f: Filter, extra = '') =>
  api.request<Page>(`/api/v1/events?${query(f)}${extra}`, { key: w.apiKey });

async function expectExactTotals(w: TestWorkspace, ids: string[]): Promise<void> {
  const from = boundary(RETENTION);
  for (const f of filtersOf(ids)) {
    const r = await list(w, f, '&limit=100');
    expect([query(f), r.status, r.body.total]).toEqual([
      query(f),
      200,
      await countRows(api.database.db, w.orgId, f, from),
    ]);
    for (const e of r.body.events) expect(Date.parse(e.created_at)).toBeGreaterThanOrEqual(from.getTime());
  }
}

beforeAll(async () => {
  api = await startTestApi({
    EVENT_RETENTION_SECONDS: String(RETENTION),
    PAYLOAD_RETENTION_SECONDS: '86400',
    API_RATE_LIMIT: '100000',
  });
  ws = await seedWorkspace(api.database.db);
  other = await seedWorkspace(api.database.db);
  for (let i = 0; i < 3; i++) targets.push(await webhook(ws, `t${i}`));
  otherTargets.push(await webhook(other, 'o0'), await webhook(other, 'o1'));
  const url = api.database.db;
  await seedEvents(url, { orgId: ws.orgId, targets, n: 3000, spanSeconds: 10 * 86400 });
  // Past retention: 25 to 35 days old.
  await seedEvents(url, {
    orgId: ws.orgId,
    targets,
    n: 400,
    spanSeconds: 10 * 86400,
    agoSeconds: 25 * 86400,
  });
  await seedEvents(url, { orgId: other.orgId, targets: otherTargets, n: 800, spanSeconds: 5 * 86400 });
}, 60_000);
afterAll(() => api.stop());

describe('exact totals from the counters', () => {
  it('match a count of the rows for every filter, in both organizations, after concurrent inserts', async () => {
    await expectExactTotals(ws, targets);
    await expectExactTotals(other, otherTargets);
  });

  it('stay exact after status changes from several connections, and through payload drops', async () => {
    await Promise.all(
      ['QUEUED', 'RETRYING', 'FAILED'].map((from, i) =>
        sql`update events set status = ${['DELIVERED', 'EXPIRED', 'REPLAYED'][i]}
             where org_id = ${ws.orgId} and status = ${from} and random() < 0.5`.execute(api.database.db),
      ),
    );
    await sql`update events set payload = null where org_id = ${ws.orgId} and random() < 0.3`.execute(
      api.database.db,
    );
    await expectExactTotals(ws, targets);
  });

  it('stay exact after replays through the API (a new QUEUED event, the original REPLAYED)', async () => {
    const delivered = await list(ws, { status: 'DELIVERED' }, '&limit=5');
    const before = delivered.body.total;
    for (const e of delivered.body.events) {
      await sql`update events set payload = convert_to('{}', 'UTF8') where id = ${e.id}`.execute(
        api.database.db,
      );
      const r = await api.request(`/api/v1/events/${e.id}/replay`, { key: ws.apiKey, method: 'POST' });
      expect(r.status).toBe(200);
    }
    expect((await list(ws, { status: 'DELIVERED' })).body.total).toBe(before - 5);
    await expectExactTotals(ws, targets);
  });

  it('never count, list, show or replay an event past retention', async () => {
    const old = await sql<{ id: string }>`
      select id from events where org_id = ${ws.orgId} and created_at < ${boundary(RETENTION)} limit 3`.execute(
      api.database.db,
    );
    expect(old.rows).toHaveLength(3);
    for (const { id } of old.rows) {
      expect((await api.request(`/api/v1/events/${id}`, { key: ws.apiKey })).status).toBe(404);
      const replay = await api.request(`/api/v1/events/${id}/replay`, { key: ws.apiKey, method: 'POST' });
      expect(replay.status).toBe(404);
      expect((await list(ws, {}, `&after=${id}`)).status).toBe(400);
    }
  });
});

describe('folding the counters of past buckets', () => {
  it('leaves one row per past bucket and every total as it was', async () => {
    const db = api.database.db;
    const shardRows = async () =>
      Number(
        (
          await sql<{ n: string }>`
            select (select count(*) from event_rollup where shard <> 0 and bucket + grain * interval '1 second' <= now())
                 + (select count(*) from event_target_counts where shard <> 0 and day + interval '1 day' <= now())
                 + (select count(*) from event_type_counts where shard <> 0 and day + interval '1 day' <= now()) as n`.execute(
            db,
          )
        ).rows[0]?.n,
      );
    expect(await shardRows()).toBeGreaterThan(0);
    const totals = await Promise.all(filtersOf(targets).map(async (f) => (await list(ws, f)).body.total));
    const stats = (await api.request('/api/v1/stats?window=7d', { key: ws.apiKey })).body;
    expect(await compactEventCounts(db, new Date(), 97)).toBeGreaterThan(0);
    expect(await shardRows()).toBe(0);
    expect(await Promise.all(filtersOf(targets).map(async (f) => (await list(ws, f)).body.total))).toEqual(
      totals,
    );
    expect((await api.request('/api/v1/stats?window=7d', { key: ws.apiKey })).body).toEqual(stats);
    await expectExactTotals(ws, targets);
  });
});

describe('dropping partitions past retention', () => {
  it('removes their rows and counters and leaves every total as it was', async () => {
    const db = api.database.db;
    const totals = await Promise.all(filtersOf(targets).map(async (f) => (await list(ws, f)).body.total));
    const before = await listPartitions(db);
    const dropped = await dropExpiredPartitions(db, new Date(), RETENTION);
    expect(dropped.length).toBeGreaterThanOrEqual(3);
    expect(dropped.length % 3).toBe(0);
    const after = await listPartitions(db);
    expect(after.map((p) => p.name)).toEqual(before.map((p) => p.name).filter((n) => !dropped.includes(n)));
    const from = boundary(RETENTION);
    for (const p of after) expect(p.to.getTime()).toBeGreaterThan(from.getTime());
    // Rows older than the boundary remain only in the partition that straddles it.
    const left = await sql<{ n: number }>`
      select count(*)::int as n from events where org_id = ${ws.orgId} and created_at < ${from}`.execute(db);
    const straddling = after.find((p) => p.table === 'events' && p.from < from);
    if (!straddling) expect(left.rows[0]?.n).toBe(0);
    const counters = await sql<{ n: number }>`
      select (select count(*) from event_rollup where bucket < ${from})
           + (select count(*) from event_target_counts where day < ${from})
           + (select count(*) from event_type_counts where day < ${from}) as n`.execute(db);
    expect(Number(counters.rows[0]?.n)).toBe(0);
    expect(await Promise.all(filtersOf(targets).map(async (f) => (await list(ws, f)).body.total))).toEqual(
      totals,
    );
    await expectExactTotals(ws, targets);
    // A second run has nothing left to drop.
    expect(await dropExpiredPartitions(db, new Date(), RETENTION)).toEqual([]);
  });
});
