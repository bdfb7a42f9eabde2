// Proves the keyset cursor of GET /api/v1/events over real HTTP: following `next_cursor` from the first
// page to the last gives every event that existed when paging began exactly once, newest first (then
// by id), while other events are being inserted all along; events made in one statement (the same
// creation time to the microsecond) are neither skipped nor repeated; filters page the same way; the
// total stays the filter's whole total on every page; and a cursor that is not a visible event of
// this organization (another organization's, unknown, malformed) answers 400.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { query, seedEvents, type Filter } from './event-store-kit.ts';

let api: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
let targets: string[];

type Page = { events: { id: string }[]; total: number; next_cursor: string | null; code?: string };

async function targetsOf(w: TestWorkspace, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
      key: w.apiKey,
      body: { kind: 'webhook', name: `t${i}`, url: `https://127.0.0.1:9/${i}` },
    });
    expect(r.status).toBe(201);
    ids.push(r.body.target.id);
  }
  return ids;
}

/** The org's events matching `f`, in list order, as they are in Postgres now. */
async function expected(orgId: string, f: Filter): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select id from events where org_id = ${orgId}
      ${f.endpoint_id ? sql`and target_id = ${f.endpoint_id}` : sql``}
      ${f.status ? sql`and status = ${f.status}` : sql``}
     order by created_at desc, id desc`.execute(api.database.db);
  return r.rows.map((row) => row.id);
}

/** Follows next_cursor to the end, calling `between` after each page; returns every id in order. */
async function walk(f: Filter, limit: number, between: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  let after: string | null = null;
  let total: number | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const path: string = `/api/v1/events?${query(f)}&limit=${limit}${after ? `&after=${after}` : ''}`;
    const r: { status: number; body: Page } = await api.request<Page>(path, { key: ws.apiKey });
    expect(r.status).toBe(200);
    total ??= r.body.total;
    seen.push(...r.body.events.map((e) => e.id));
    after = r.body.next_cursor;
    expect(after === null || after === r.body.events.at(-1)?.id).toBe(true);
    if (!after) return seen;
    await between();
  }
  throw new Error('more than 200 pages');
}

beforeAll(async () => {
  api = await startTestApi({ API_RATE_LIMIT: '100000' });
  ws = await seedWorkspace(api.database.db);
  other = await seedWorkspace(api.database.db);
  targets = await targetsOf(ws, 3);
  const db = api.database.db;
  await seedEvents(db, { orgId: ws.orgId, targets, n: 600, spanSeconds: 3 * 86400 });
  // 150 events with one creation time: only the id orders them.
  await seedEvents(db, { orgId: ws.orgId, targets, n: 150, spanSeconds: 0, agoSeconds: 3600 }, 1);
}, 60_000);
afterAll(() => api.stop());

describe('GET /api/v1/events?after=', () => {
  it.each<[string, Filter, number]>([
    ['no filter', {}, 37],
    ['an endpoint', { endpoint_id: '' }, 16],
    ['a status', { status: 'DELIVERED' }, 9],
  ])('with %s, gives every event once, in order, while new events keep arriving', async (_, f, limit) => {
    const filter = f.endpoint_id === '' ? { endpoint_id: targets[0] } : f;
    const before = await expected(ws.orgId, filter);
    expect(before.length).toBeGreaterThan(limit * 3);
    let n = 0;
    const insertMore = () =>
      seedEvents(api.database.db, { orgId: ws.orgId, targets, n: 5 + (n++ % 3), spanSeconds: 0 }, 1);
    const seen = await walk(filter, limit, insertMore);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before);
    expect((await expected(ws.orgId, filter)).length).toBeGreaterThan(before.length);
  });

  it('keeps the total of the whole filter on every page', async () => {
    const first = await api.request<Page>('/api/v1/events?limit=5', { key: ws.apiKey });
    const next = await api.request<Page>(`/api/v1/events?limit=5&after=${first.body.next_cursor}`, {
      key: ws.apiKey,
    });
    expect(next.body.total).toBe(first.body.total);
    expect(next.body.events[0]?.id).not.toBe(first.body.events[0]?.id);
  });

  it('answers 400 for a cursor of another organization, an unknown one and a malformed one', async () => {
    await seedEvents(api.database.db, {
      orgId: other.orgId,
      targets: await targetsOf(other, 1),
      n: 3,
      spanSeconds: 60,
    });
    const foreign = (await expected(other.orgId, {}))[0] ?? '';
    for (const after of [foreign, '0'.repeat(32), 'not-an-id', 'x'.repeat(65)]) {
      const r = await api.request<Page>(`/api/v1/events?after=${after}`, { key: ws.apiKey });
      expect([after, r.status, r.body.code]).toEqual([after, 400, 'validation_failed']);
    }
  });
});
