// Proves that replay (POST /api/v1/events/:id/replay) and recover (POST /api/v1/targets/:id/recover)
// are gated as ingestion is, over real HTTP against the API and an ingest service sharing one database
// and Redis: a workspace whose billing is suspended or pending gets ingestion's 402, word for word, and
// no event row or recovery is written; both count in the target's ingest window, the very one ingestion
// counts in (INGEST_RATE_LIMIT=3: two ingests and one replay fill it, then a replay or an ingest is 429
// 'rate limit exceeded for this endpoint' with Retry-After); a recover request counts once; a replay of
// a disabled target is ingestion's 409 target_disabled and takes no place in the window.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setBillingStatus } from '@evds/db';
import {
  seedWorkspace,
  startTestApi,
  startTestIngest,
  type Client,
  type TestApi,
  type TestIngest,
  type TestWorkspace,
} from '@evds/testkit';

const WINDOW = 3;
const BILLING_BLOCKED = 'ingestion is blocked while billing is pending or suspended';

let api: TestApi;
let ingestService: TestIngest;
let ingest: Client;

beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_LIMIT: String(WINDOW), INGEST_RATE_WINDOW_SECONDS: '60' });
  ingestService = await startTestIngest(api.env);
  ingest = ingestService.request;
});
afterAll(async () => {
  await ingestService.stop();
  await api.stop();
});

async function webhookTarget(ws: TestWorkspace): Promise<string> {
  const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'webhook', name: 'hook', url: 'https://127.0.0.1:9/hook' },
  });
  expect(r.status).toBe(201);
  return r.body.target.id;
}

const send = (ws: TestWorkspace, target: string) =>
  ingest<{ id: string; code?: string; error?: string }>(`/t/${target}`, { key: ws.apiKey, body: { n: 1 } });

async function accepted(ws: TestWorkspace, target: string): Promise<string> {
  const r = await send(ws, target);
  expect(r.status).toBe(202);
  return r.body.id;
}

const replay = (ws: TestWorkspace, id: string) =>
  api.request(`/api/v1/events/${id}/replay`, { method: 'POST', key: ws.apiKey });
const recover = (ws: TestWorkspace, target: string) =>
  api.request(`/api/v1/targets/${target}/recover`, {
    key: ws.apiKey,
    body: { since: 0, statuses: ['FAILED', 'EXPIRED', 'DELIVERED'] },
  });

const rows = async (table: 'events' | 'recoveries', orgId: string) =>
  (await api.database.db.selectFrom(table).select('id').where('org_id', '=', orgId).execute()).length;

function expectWindowFull(r: { status: number; headers: Headers; body: Record<string, unknown> }) {
  expect(r.status).toBe(429);
  expect(r.body).toEqual({ error: 'rate limit exceeded for this endpoint', code: 'rate_limited' });
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('billing gate', () => {
  it.each(['suspended', 'pending'] as const)(
    'replay and recover answer 402 while billing is %s, writing nothing',
    async (status) => {
      const ws = await seedWorkspace(api.database.db);
      const target = await webhookTarget(ws);
      const original = await accepted(ws, target);
      await setBillingStatus(api.database.db, ws.orgId, status);
      const events = await rows('events', ws.orgId);

      for (const r of [await replay(ws, original), await recover(ws, target)])
        expect([r.status, r.body]).toEqual([402, { error: BILLING_BLOCKED, code: 'payment_required' }]);
      expect(await rows('events', ws.orgId)).toBe(events);
      expect(await rows('recoveries', ws.orgId)).toBe(0);

      await setBillingStatus(api.database.db, ws.orgId, 'active');
      expect((await replay(ws, original)).status).toBe(200);
    },
  );
});

describe("the target's ingest window", () => {
  it('two ingests and one replay fill it; then a replay and an ingest are both 429', async () => {
    const ws = await seedWorkspace(api.database.db);
    const target = await webhookTarget(ws);
    const first = await accepted(ws, target);
    await accepted(ws, target);
    expect((await replay(ws, first)).status).toBe(200);

    expectWindowFull(await replay(ws, first));
    const ingested = await send(ws, target);
    expectWindowFull(ingested);
    expect(await rows('events', ws.orgId)).toBe(3);
  });

  it('a window filled by ingestion refuses the replay, and other targets keep their own window', async () => {
    const ws = await seedWorkspace(api.database.db);
    const full = await webhookTarget(ws);
    const ids = [await accepted(ws, full), await accepted(ws, full), await accepted(ws, full)];
    expectWindowFull(await replay(ws, ids[0] ?? ''));
    const other = await webhookTarget(ws);
    expect((await replay(ws, await accepted(ws, other))).status).toBe(200);
  });

  it('a recover request counts once in the window, and is refused when it is full', async () => {
    const ws = await seedWorkspace(api.database.db);
    const target = await webhookTarget(ws);
    await accepted(ws, target);
    await accepted(ws, target);
    const first = await recover(ws, target);
    expect(first.status).toBe(202);
    expectWindowFull(await send(ws, target));
    // Finished (no worker runs here), so the next one meets the window, not the running recovery's 409.
    await api.database.db
      .updateTable('recoveries')
      .set({ state: 'completed', finished_at: new Date() })
      .where('id', '=', String(first.body.id))
      .execute();
    expectWindowFull(await recover(ws, target));
    expect(await rows('recoveries', ws.orgId)).toBe(1);
  });

  it('a replay refused for a disabled target (409 target_disabled) takes no place in the window', async () => {
    const ws = await seedWorkspace(api.database.db);
    const target = await webhookTarget(ws);
    const original = await accepted(ws, target);
    const path = `/api/v1/targets/${target}`;
    await api.request(path, { method: 'PATCH', key: ws.apiKey, body: { enabled: false } });
    for (let i = 0; i < WINDOW + 1; i++) {
      const r = await replay(ws, original);
      expect([r.status, r.body.code]).toEqual([409, 'target_disabled']);
    }
    await api.request(path, { method: 'PATCH', key: ws.apiKey, body: { enabled: true } });
    expect((await replay(ws, original)).status).toBe(200);
    expect((await replay(ws, original)).status).toBe(200);
    expectWindowFull(await replay(ws, original));
  });
});
