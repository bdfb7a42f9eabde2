// Proves the API-key routes over real HTTP: keys are 72 characters and shown once, the list shows a
// 12-character prefix only, a workspace holds at most five, the last key and the key in use cannot be
// deleted, a deleted key stops working on the next request, billing states gate creation (402) but
// not reads, and another organization's key ids answer 404.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setBillingStatus } from '@evds/db';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

let api: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi();
  ws = await seedWorkspace(api.database.db);
  other = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

type Created = { id: string; name: string; key: string };
type Listed = { keys: { id: string; name: string; prefix: string; created_at: number }[] };

const createKey = (key: string, name: string) =>
  api.request<Created>('/api/v1/keys', { key, body: { name } });

describe('keys', () => {
  it('creates a 72-character key, shown once, that authenticates', async () => {
    const r = await createKey(ws.apiKey, 'ci');
    expect(r.status).toBe(201);
    expect(r.body.key).toMatch(/^evds_sk_[0-9a-f]{64}$/);
    expect(r.body.key).toHaveLength(72);
    expect(r.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), name: 'ci', key: r.body.key });
    const me = await api.request('/api/v1/auth/me', { key: r.body.key });
    expect(me.status).toBe(200);
    const list = await api.request<Listed>('/api/v1/keys', { key: ws.apiKey });
    const listed = list.body.keys.find((k) => k.id === r.body.id);
    expect(listed?.prefix).toBe(r.body.key.slice(0, 12));
    expect(list.text).not.toContain(r.body.key);
    expect(list.text).not.toContain('hash');
  });

  it('holds at most five keys per workspace', async () => {
    const fresh = await seedWorkspace(api.database.db);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await createKey(fresh.apiKey, `k${i}`)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 409]);
    const list = await api.request<Listed>('/api/v1/keys', { key: fresh.apiKey });
    expect(list.body.keys).toHaveLength(5);
  });

  it('concurrent creations cannot pass the limit', async () => {
    const fresh = await seedWorkspace(api.database.db);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => createKey(fresh.apiKey, `c${i}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 409)).toHaveLength(6);
  });

  it('refuses to delete the key making the request', async () => {
    const r = await api.request(`/api/v1/keys/${ws.keyId}`, { method: 'DELETE', key: ws.apiKey });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('key_in_use');
  });

  it("refuses to delete the workspace's last key (through a session)", async () => {
    const fresh = await seedWorkspace(api.database.db);
    const session = (
      await api.request<{ session_token: string }>('/api/v1/auth/login', {
        body: { email: fresh.email, password: fresh.password },
      })
    ).body.session_token;
    const r = await api.request(`/api/v1/keys/${fresh.keyId}`, { method: 'DELETE', session });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('last_key');
  });

  it('a deleted key stops working on the very next request', async () => {
    const extra = await createKey(ws.apiKey, 'short-lived');
    expect((await api.request('/api/v1/orgs', { key: extra.body.key })).status).toBe(200);
    const del = await api.request(`/api/v1/keys/${extra.body.id}`, { method: 'DELETE', key: ws.apiKey });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    expect((await api.request('/api/v1/orgs', { key: extra.body.key })).status).toBe(401);
    expect(
      (await api.request(`/api/v1/keys/${extra.body.id}`, { method: 'DELETE', key: ws.apiKey })).status,
    ).toBe(404);
  });

  it("answers 404 for another organization's key and leaves it working", async () => {
    const r = await api.request(`/api/v1/keys/${other.keyId}`, { method: 'DELETE', key: ws.apiKey });
    expect(r.status).toBe(404);
    expect((await api.request('/api/v1/orgs', { key: other.apiKey })).status).toBe(200);
  });

  it.each(['nope', '0'.repeat(31), 'G'.repeat(32), '%00'])(
    'answers 404 for an id of the wrong shape (%s)',
    async (id) => {
      expect((await api.request(`/api/v1/keys/${id}`, { method: 'DELETE', key: ws.apiKey })).status).toBe(
        404,
      );
    },
  );

  it.each([
    ['missing name', {}],
    ['empty name', { name: '  ' }],
    ['numeric name', { name: 7 }],
    ['unknown field', { name: 'x', scope: 'all' }],
  ])('refuses a body with %s (400)', async (_n, body) => {
    const r = await api.request('/api/v1/keys', { key: ws.apiKey, body });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/name|scope|Unrecognized/);
  });

  it.each(['pending', 'suspended'] as const)(
    'blocks key creation with 402 while billing is %s, reads still work',
    async (status) => {
      const fresh = await seedWorkspace(api.database.db);
      await setBillingStatus(api.database.db, fresh.orgId, status);
      const r = await createKey(fresh.apiKey, 'blocked');
      expect(r.status).toBe(402);
      expect((await api.request('/api/v1/keys', { key: fresh.apiKey })).status).toBe(200);
      expect((await api.request('/api/v1/orgs', { key: fresh.apiKey })).status).toBe(200);
    },
  );
});
