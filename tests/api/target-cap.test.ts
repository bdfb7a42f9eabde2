// Proves the cap on targets per workspace (TARGETS_PER_ORG, here 5) over real HTTP: webhook endpoints
// (/api/v1/endpoints) and targets of every kind (/api/v1/targets) count together; one more answers
// 409 {code: 'target_limit'} with a message naming the cap, on every create route (an a2a create is
// refused before its Agent Card is fetched), and nothing is written; deleting a target makes room;
// another workspace is not affected; a burst of concurrent creates at cap - 1, all held just before
// their inserts, lets exactly one through (the count and the insert are atomic); and the OpenAPI
// document lists the 409 on every create route.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDb } from '@evds/db';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

const CAP = 5;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ TARGETS_PER_ORG: String(CAP) });
});
afterAll(() => api.stop());

const hook = (n: number) => `https://127.0.0.1:9/hook/${n}`;

const create = {
  webhook: (ws: TestWorkspace, n = 0) =>
    api.request('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'webhook', name: `w${n}`, url: hook(n) },
    }),
  mailbox: (ws: TestWorkspace, n = 0) =>
    api.request<{ target: { id: string }; error?: string; code?: string }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'mailbox', name: `m${n}` },
    }),
  endpoint: (ws: TestWorkspace, n = 0) =>
    api.request('/api/v1/endpoints', { key: ws.apiKey, body: { name: `e${n}`, url: hook(n) } }),
  // Nothing listens on port 9: were the card fetched, the answer would be a 422, not the cap's 409.
  a2a: (ws: TestWorkspace, n = 0) =>
    api.request('/api/v1/targets', {
      key: ws.apiKey,
      body: {
        kind: 'a2a',
        name: `a${n}`,
        agent_card_url: 'https://127.0.0.1:9/.well-known/agent-card.json',
        auth: { type: 'none' },
      },
    }),
};

/** Holds a lock taken by `statement` in a transaction of another connection until released. */
async function holdLock(statement: string): Promise<() => Promise<void>> {
  const db = createDb({ url: api.database.url, poolSize: 1, applicationName: 'evds-test-locker' });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const tx = db.transaction().execute(async (t) => {
    await sql.raw(statement).execute(t);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await tx;
    await db.destroy();
  };
}

const liveTargets = async (orgId: string) =>
  (
    await api.database.db
      .selectFrom('targets')
      .select('id')
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .execute()
  ).length;

describe('targets per workspace', () => {
  it('counts every kind together and refuses one more with 409 target_limit on every create route', async () => {
    const ws = await seedWorkspace(api.database.db);
    const made = [
      await create.webhook(ws, 1),
      await create.mailbox(ws, 2),
      await create.endpoint(ws, 3),
      await create.webhook(ws, 4),
      await create.endpoint(ws, 5),
    ];
    expect(made.map((r) => r.status)).toEqual([201, 201, 200, 201, 200]);

    for (const attempt of [create.webhook, create.mailbox, create.endpoint, create.a2a]) {
      const r = await attempt(ws, 6);
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('target_limit');
      expect(r.body.error).toContain(`at most ${CAP} targets`);
    }
    expect(await liveTargets(ws.orgId)).toBe(CAP);

    const other = await seedWorkspace(api.database.db);
    expect((await create.mailbox(other)).status).toBe(201);
  });

  it('deleting a target makes room for one more', async () => {
    const ws = await seedWorkspace(api.database.db);
    const ids: string[] = [];
    for (let i = 0; i < CAP; i++) ids.push((await create.mailbox(ws, i)).body.target.id);
    expect((await create.mailbox(ws, 9)).status).toBe(409);
    const del = await api.request(`/api/v1/targets/${ids[0]}`, { method: 'DELETE', key: ws.apiKey });
    expect(del.status).toBe(200);
    expect((await create.endpoint(ws, 10)).status).toBe(200);
    expect((await create.endpoint(ws, 11)).status).toBe(409);
  });

  it('a concurrent burst at cap - 1 lets exactly one create through', async () => {
    const ws = await seedWorkspace(api.database.db);
    for (let i = 0; i < CAP - 1; i++) expect((await create.mailbox(ws, i)).status).toBe(201);
    // Inserts into targets wait behind this lock while reads go on, so every create of the burst gets
    // as far as it can before its insert at the same time: the widest window a check-then-insert race has.
    const release = await holdLock('lock table targets in share mode');
    const burst = Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        [create.webhook, create.mailbox, create.endpoint][i % 3]!(ws, 100 + i),
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    await release();
    const statuses = (await burst).map((r) => r.status);
    expect(statuses.filter((s) => s === 200 || s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    expect(await liveTargets(ws.orgId)).toBe(CAP);
  });

  it('documents the 409 on every create route', async () => {
    const doc = await api.request<{ paths: Record<string, { post?: { responses: object } }> }>(
      '/api/v1/openapi.json',
    );
    for (const path of ['/api/v1/targets', '/api/v1/endpoints'])
      expect(Object.keys(doc.body.paths[path]?.post?.responses ?? {})).toContain('409');
  });
});
