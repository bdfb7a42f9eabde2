// Proves API keys' `last_used_at` over real HTTP, against the API and an ingest service on their own
// database: a key shows null until it authenticates a request the service accepts, then the time of that
// request, whether it went to the API or to ingest; a refused request, or a key that fails to
// authenticate, notes nothing; and
// Postgres keeps one write a minute per key, however many replicas note it (noteApiKeyUsed).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { noteApiKeyUsed, type Db } from '@evds/db';
import {
  seedWorkspace,
  startTestApi,
  startTestIngest,
  type Client,
  type TestApi,
  type TestIngest,
  type TestWorkspace,
} from '@evds/testkit';
import { sql } from 'kysely';

let api: TestApi;
let ingestService: TestIngest;
let ingest: Client;
let db: Db;
let ws: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi({ API_KEYS_PER_ORG: '10' });
  ingestService = await startTestIngest(api.env);
  ingest = ingestService.request;
  db = api.database.db;
  ws = await seedWorkspace(db);
});
afterAll(async () => {
  await ingestService.stop();
  await api.stop();
});

type Listed = { keys: { id: string; last_used_at: number | null }[] };

const newKey = async (name: string) =>
  (await api.request<{ id: string; key: string }>('/api/v1/keys', { key: ws.apiKey, body: { name } })).body;

/** The key's last_used_at as the list shows it, once it is set (or null after `ms`). */
async function lastUsed(id: string, ms = 3000): Promise<number | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const list = await api.request<Listed>('/api/v1/keys', { key: ws.apiKey });
    const at = list.body.keys.find((k) => k.id === id)?.last_used_at ?? null;
    if (at !== null || Date.now() > deadline) return at;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stored = async (id: string) =>
  (await db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow())
    .last_used_at;

describe('API key last use', () => {
  it('is null until the key authenticates a request to the API, then that request’s time', async () => {
    const k = await newKey('api user');
    expect(await lastUsed(k.id, 300)).toBeNull();
    const before = Math.floor(Date.now() / 1000);
    expect((await api.request('/api/v1/auth/me', { key: k.key })).status).toBe(200);
    const at = await lastUsed(k.id);
    expect(at).not.toBeNull();
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it('is set by a key used only for ingestion', async () => {
    const k = await newKey('producer');
    const mailbox = await api.request<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'mailbox', name: 'inbox' },
    });
    expect(await lastUsed(k.id, 300)).toBeNull();
    const r = await ingest(`/t/${mailbox.body.target.id}`, { key: k.key, body: { n: 1 } });
    expect(r.status).toBe(202);
    expect(await lastUsed(k.id)).not.toBeNull();
  });

  it('is not set by a request the key authenticated but the service refused', async () => {
    const k = await newKey('refused');
    const missing = await api.request(`/api/v1/events/${'0'.repeat(32)}`, { key: k.key });
    expect(missing.status).toBe(404);
    expect(await lastUsed(k.id, 300)).toBeNull();
  });

  it('is not set by a request whose key fails to authenticate, though it shares the key’s prefix', async () => {
    const k = await newKey('unused');
    const wrong = `${k.key.slice(0, -4)}${k.key.endsWith('0000') ? '1111' : '0000'}`;
    expect((await api.request('/api/v1/auth/me', { key: wrong })).status).toBe(401);
    expect(await lastUsed(k.id, 300)).toBeNull();
  });

  it('is written once a minute at most, whichever replica notes it', async () => {
    const k = await newKey('busy');
    await sql`update api_keys set last_used_at = now() - interval '30 seconds' where id = ${k.id}`.execute(
      db,
    );
    const recent = await stored(k.id);
    await noteApiKeyUsed(db, k.id);
    expect(await stored(k.id)).toEqual(recent);
    await sql`update api_keys set last_used_at = now() - interval '2 minutes' where id = ${k.id}`.execute(db);
    const old = await stored(k.id);
    await noteApiKeyUsed(db, k.id);
    const moved = await stored(k.id);
    expect(moved!.getTime()).toBeGreaterThan(old!.getTime() + 100_000);
  });
});
