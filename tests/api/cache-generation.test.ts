// Proves that the API tells ingest's caches about exactly the changes they hold, and that what it does
// not tell keeps them warm: the cache generation (read from Redis) stays put across login, logout, org
// rename, key and target creation, renames, signing-secret rotation, mailbox claims, heartbeats and
// acks and replays, and moves by one on each key delete, target or endpoint disable, event-type or
// inbound-signature change and delete. With a consumer claiming, heartbeating and acking 10 messages,
// a lookup cache over a counted real database sends Postgres no query after its first two, and the
// consumer's key, once deleted, is refused on the very next lookup. A bump that fails answers 503
// saying the change was saved (the delete is in the database), never 200.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { insertItems } from '@evds/db';
import { newId, sha256 } from '@evds/domain';
import { createLookupCache } from '@evds/ingest-core';
import { cacheGenerationKey, createRedis, type Redis } from '@evds/queue';
import { countingDb, seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

let api: TestApi;
let redis: Redis;
let ws: TestWorkspace;
let prefix: string;

beforeAll(async () => {
  api = await startTestApi();
  prefix = api.env.REDIS_PREFIX ?? '';
  redis = createRedis(api.env.REDIS_URL ?? '', { role: 'client', name: 'cache-generation-test' });
  ws = await seedWorkspace(api.database.db);
});
afterAll(async () => {
  redis.disconnect();
  await api.stop();
});

const generation = async () => Number((await redis.get(cacheGenerationKey(prefix))) ?? 0);

/** Calls the API and insists on a success: a refusal would change nothing and prove nothing. */
async function ok<T = Record<string, unknown>>(
  path: string,
  opts: Parameters<TestApi['request']>[1] = {},
): Promise<T> {
  const r = await api.request<T>(path, { key: ws.apiKey, ...opts });
  if (r.status >= 300) throw new Error(`${opts.method ?? 'GET'} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

const createTarget = async (body: Record<string, unknown>) =>
  (await ok<{ target: { id: string } }>('/api/v1/targets', { body })).target.id;
const newKey = () => ok<{ id: string; key: string }>('/api/v1/keys', { body: { name: 'consumer' } });

/** Items written straight to the database, as ingest commits them. */
async function items(targetId: string, kind: 'mailbox' | 'webhook', n: number): Promise<string[]> {
  const rows = Array.from({ length: n }, () => ({
    id: newId(),
    orgId: ws.orgId,
    targetId,
    kind,
    eventType: null,
    correlationId: null,
    payload: Buffer.from('{"n":1}'),
    requestId: null,
  }));
  await insertItems(api.database.db, rows);
  return rows.map((r) => r.id);
}

it('bumps the generation on exactly the changes ingest caches', async () => {
  const mailbox = await createTarget({ kind: 'mailbox', name: 'm' });
  const webhook = await createTarget({ kind: 'webhook', name: 'w', url: 'https://127.0.0.1:9/w' });
  const [message = ''] = await items(mailbox, 'mailbox', 1);
  const [event = ''] = await items(webhook, 'webhook', 1);
  const consumer = await newKey();
  const login = await ok<{ session_token: string }>('/api/v1/auth/login', {
    key: undefined,
    body: { email: ws.email, password: ws.password },
  });
  const session = { key: undefined, session: login.session_token };

  const steps: [string, () => Promise<unknown>, number][] = [
    [
      'login',
      () => ok('/api/v1/auth/login', { key: undefined, body: { email: ws.email, password: ws.password } }),
      0,
    ],
    ['org rename', () => ok('/api/v1/orgs', { method: 'PATCH', body: { name: 'Renamed' } }), 0],
    ['key create', () => newKey(), 0],
    ['target create', () => createTarget({ kind: 'mailbox', name: 'another' }), 0],
    ['target rename', () => ok(`/api/v1/targets/${mailbox}`, { method: 'PATCH', body: { name: 'n' } }), 0],
    [
      'endpoint rename',
      () => ok(`/api/v1/endpoints/${webhook}`, { method: 'PATCH', body: { name: 'e' } }),
      0,
    ],
    [
      'signing secret rotation',
      () => ok(`/api/v1/targets/${webhook}/signing-secret/rotate`, { method: 'POST' }),
      0,
    ],
    [
      'claim',
      () => ok(`/api/v1/mailbox-messages/${message}/claim`, { method: 'POST', key: consumer.key }),
      0,
    ],
    [
      'heartbeat',
      () => ok(`/api/v1/mailbox-messages/${message}/claim`, { method: 'POST', key: consumer.key }),
      0,
    ],
    ['ack', () => ok(`/api/v1/mailbox-messages/${message}/ack`, { method: 'POST', key: consumer.key }), 0],
    ['replay', () => ok(`/api/v1/events/${event}/replay`, { method: 'POST' }), 0],
    ['logout', () => ok('/api/v1/auth/logout', { method: 'POST', ...session }), 0],
    [
      'target disable',
      () => ok(`/api/v1/targets/${mailbox}`, { method: 'PATCH', body: { enabled: false } }),
      1,
    ],
    [
      'target enable',
      () => ok(`/api/v1/targets/${mailbox}`, { method: 'PATCH', body: { enabled: true } }),
      1,
    ],
    [
      'event types',
      () => ok(`/api/v1/endpoints/${webhook}`, { method: 'PATCH', body: { event_types: ['a'] } }),
      1,
    ],
    [
      'inbound signatures on',
      () =>
        ok(`/api/v1/endpoints/${webhook}`, { method: 'PATCH', body: { verify_inbound_signatures: true } }),
      1,
    ],
    ['key delete', () => ok(`/api/v1/keys/${consumer.id}`, { method: 'DELETE' }), 1],
    ['endpoint delete', () => ok(`/api/v1/endpoints/${webhook}`, { method: 'DELETE' }), 1],
    ['target delete', () => ok(`/api/v1/targets/${mailbox}`, { method: 'DELETE' }), 1],
  ];
  const moved: Record<string, number> = {};
  for (const [label, step] of steps) {
    const before = await generation();
    await step();
    moved[label] = (await generation()) - before;
  }
  expect(moved).toEqual(Object.fromEntries(steps.map(([label, , delta]) => [label, delta])));
});

it("keeps ingest's cache warm while a consumer claims, heartbeats and acks; a key delete still lands at once", async () => {
  const mailbox = await createTarget({ kind: 'mailbox', name: 'busy' });
  const consumer = await newKey();
  const messages = await items(mailbox, 'mailbox', 10);
  const { db, queries } = countingDb(api.database.db);
  const cache = createLookupCache({ db, redis, prefix, maxEntries: 1000 });
  const lookUp = async () => {
    expect(await cache.credentials.apiKey(sha256(consumer.key))).toMatchObject({ key_id: consumer.id });
    expect(await cache.target(ws.orgId, mailbox)).toMatchObject({ id: mailbox, enabled: true });
  };

  await lookUp();
  for (const id of messages)
    for (const step of ['claim', 'claim', 'ack']) {
      await ok(`/api/v1/mailbox-messages/${id}/${step}`, { method: 'POST', key: consumer.key });
      await lookUp();
    }
  expect(queries).toEqual({ apiKeys: 1, targets: 1 });

  await ok(`/api/v1/keys/${consumer.id}`, { method: 'DELETE' });
  expect(await cache.credentials.apiKey(sha256(consumer.key))).toBeUndefined();
  expect(queries.apiKeys).toBe(2);
});

it('answers 503 saying the change was saved when ingest cannot be told, and never bumps for a rename', async () => {
  const doomed = await newKey();
  const mailbox = await createTarget({ kind: 'mailbox', name: 'r' });
  // INCR refuses a value that is not an integer: the bump fails in Redis for real.
  await redis.set(cacheGenerationKey(prefix), 'not a number');
  try {
    const rename = await api.request(`/api/v1/targets/${mailbox}`, {
      key: ws.apiKey,
      method: 'PATCH',
      body: { name: 'renamed' },
    });
    expect(rename.status).toBe(200);

    const r = await api.request(`/api/v1/keys/${doomed.id}`, { key: ws.apiKey, method: 'DELETE' });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({
      code: 'unavailable',
      error:
        'the change was saved, but ingestion could not be told at once and may act on the previous value for up to a minute',
    });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    const keys = await ok<{ keys: { id: string }[] }>('/api/v1/keys');
    expect(keys.keys.map((k) => k.id)).not.toContain(doomed.id);
  } finally {
    await redis.set(cacheGenerationKey(prefix), '1000');
  }
  // A retry of the delete finds the key gone.
  expect((await api.request(`/api/v1/keys/${doomed.id}`, { key: ws.apiKey, method: 'DELETE' })).status).toBe(
    404,
  );
});
