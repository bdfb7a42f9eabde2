// Proves that ingest's lookup cache cannot be emptied by callers who hold no credential: over a real
// database whose queries are counted, and real Redis, a key in use stays cached while 2,000 made-up
// keys are looked up (each costs one query, then a second ask for one of them costs none: misses are
// kept apart, few and briefly), and at the size cap only the least recently used target is dropped,
// not the whole cache. A moved cache generation still drops everything, misses included. A request's
// key and target lookups share one read of the generation; a lookup of a request begun after the last
// read was sent reads again, and sees a change made in between.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createTarget } from '@evds/db';
import { newId, sha256 } from '@evds/domain';
import { createLookupCache } from '@evds/ingest-core';
import { bumpCacheGeneration, createRedis, type Redis } from '@evds/queue';
import {
  countingDb,
  createTestDatabase,
  seedWorkspace,
  testRedisPrefix,
  testRedisUrl,
  type TestDatabase,
  type TestWorkspace,
} from '@evds/testkit';

let database: TestDatabase;
let redis: Redis;
let ws: TestWorkspace;
const prefix = testRedisPrefix();

beforeAll(async () => {
  database = await createTestDatabase();
  redis = createRedis(testRedisUrl(), { role: 'client', name: 'lookup-cache-test' });
  ws = await seedWorkspace(database.db);
});
afterAll(async () => {
  redis.disconnect();
  await database.drop();
});

const mailbox = async (): Promise<string> =>
  (await createTarget(database.db, { id: newId(), org_id: ws.orgId, kind: 'mailbox', name: 'm' })).id;

it('keeps a key in use cached while 2,000 unknown keys are looked up', async () => {
  const { db, queries } = countingDb(database.db);
  const cache = createLookupCache({ db, redis, prefix, maxEntries: 100 });
  const hash = sha256(ws.apiKey);
  expect(await cache.credentials.apiKey(hash)).toMatchObject({ key_id: ws.keyId });
  expect(queries.apiKeys).toBe(1);

  const unknown = Array.from({ length: 2_000 }, () => sha256(newId()));
  for (let i = 0; i < unknown.length; i += 100)
    await Promise.all(unknown.slice(i, i + 100).map((h) => cache.credentials.apiKey(h)));
  expect(queries.apiKeys).toBe(2_001);

  expect(await cache.credentials.apiKey(hash)).toMatchObject({ key_id: ws.keyId });
  expect(await cache.credentials.apiKey(unknown.at(-1) ?? '')).toBeUndefined();
  expect(queries.apiKeys).toBe(2_001);

  // A moved generation drops everything: both are asked of Postgres again.
  await bumpCacheGeneration(redis, prefix);
  await cache.credentials.apiKey(hash);
  await cache.credentials.apiKey(unknown.at(-1) ?? '');
  expect(queries.apiKeys).toBe(2_003);
});

it('drops only the least recently used target at the size cap', async () => {
  const { db, queries } = countingDb(database.db);
  const cache = createLookupCache({ db, redis, prefix, maxEntries: 3 });
  const ids = [await mailbox(), await mailbox(), await mailbox(), await mailbox()];
  for (const id of ids) expect(await cache.target(ws.orgId, id)).toMatchObject({ id });
  expect(queries.targets).toBe(4);
  // The three most recent are still there; the first one was the one to go.
  for (const id of ids.slice(1)) await cache.target(ws.orgId, id);
  expect(queries.targets).toBe(4);
  await cache.target(ws.orgId, ids[0] ?? '');
  expect(queries.targets).toBe(5);
});

it("shares a request's read of the generation between its key and target lookups, never an older one", async () => {
  // The reads of the generation, counted on the real connection the cache uses.
  let reads = 0;
  const counted = new Proxy(redis, {
    get: (r, p) =>
      p === 'get'
        ? (...args: Parameters<Redis['get']>) => {
            reads++;
            return r.get(...args);
          }
        : (Reflect.get(r, p) as unknown),
  });
  const { db, queries } = countingDb(database.db);
  const cache = createLookupCache({ db, redis: counted, prefix, maxEntries: 100 });
  const target = await mailbox();
  const request = async () => {
    const since = performance.now();
    await cache.credentials.apiKey(sha256(ws.apiKey));
    return cache.target(ws.orgId, target, since);
  };
  expect(await request()).toMatchObject({ id: target });
  expect(reads).toBe(1);
  expect(await request()).toMatchObject({ id: target });
  expect(reads).toBe(2);
  expect(queries.targets).toBe(1);

  // A lookup of a request begun after the last read was sent reads again: it sees a change made since.
  await request();
  const since = performance.now();
  await bumpCacheGeneration(redis, prefix);
  expect(await cache.target(ws.orgId, target, since)).toMatchObject({ id: target });
  expect(reads).toBe(4);
  expect(queries.targets).toBe(2);
});
