// Proves, in process against a real three-master Redis Cluster (the test kit starts it from the
// installed redis-server), that every Redis use of the service keeps the keys of one command or script
// in one slot: BullMQ queues (their names hash-tagged on a cluster) take, count and run jobs; the flow
// gate and circuit scripts run on one organization's slot while organizations spread over the nodes,
// and circuits of organizations on different nodes are read together; the sliding-window limiter and
// the cache generation work, and a cluster that is down reads as Redis unavailable. A queue without
// the tag is refused with CROSSSLOT: the cluster really splits keys, so these tests fail when a tag is
// missing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { newId } from '@evds/domain';
import { countOpenCircuits, createFlow, readCircuits, type FlowLimits, type TargetRef } from '@evds/flow';
import { createRateLimiter } from '@evds/http';
import {
  bumpCacheGeneration,
  cacheGenerationKey,
  createProducer,
  createRedis,
  createWorker,
  isRedisUnavailable,
  jobGroupId,
  queueCounts,
  waitListKey,
  type Producer,
  type Redis,
} from '@evds/queue';
import { startRedisCluster, testRedisPrefix, type RedisClusterHarness } from '@evds/testkit';

let cluster: RedisClusterHarness;
let redis: Redis;
let workerRedis: Redis;
let producer: Producer;
const prefix = testRedisPrefix();

beforeAll(async () => {
  cluster = await startRedisCluster();
  redis = createRedis(cluster.url, { role: 'client', name: 'cluster-test' });
  workerRedis = createRedis(cluster.url, { role: 'worker', name: 'cluster-test-worker' });
  producer = createProducer(redis, prefix);
}, 60_000);
afterAll(async () => {
  await producer.close().catch(() => undefined);
  redis.disconnect();
  workerRedis.disconnect();
  await cluster.stop();
});

it('connects to the cluster from a redis-cluster:// URL', () => {
  expect(redis.isCluster).toBe(true);
  expect(cluster.url).toMatch(/^redis-cluster:\/\/127\.0\.0\.1:\d+(,127\.0\.0\.1:\d+){2}$/);
});

it('runs BullMQ queues on the cluster: add, count, the waiting list, a worker', async () => {
  const eventId = newId();
  await producer.add('webhook', eventId, { eventId });
  await producer.addBulk('a2a', [{ jobId: 'a1', data: { eventId: newId() } }]);
  expect(await queueCounts(producer, redis, 'webhook')).toMatchObject({ waiting: 1, active: 0 });
  expect(await redis.lindex(waitListKey(prefix, 'webhook', true), -1)).toBe(eventId);
  expect(await redis.llen(waitListKey(prefix, 'a2a', true))).toBe(1);
  // Each queue's keys (list, job hash, ids) sit on one node, named with the queue's hash tag.
  const keys = [...(await cluster.keysByNode(`${prefix}:bull:*`)).values()].flat();
  expect(keys).toContain(`${prefix}:bull:{webhook-delivery}:${eventId}`);
  expect(keys.every((k) => /:bull:\{(webhook-delivery|a2a-delivery)\}:/.test(k))).toBe(true);

  // A group job (ingest's items of one commit) goes through the same list.
  const grouped = [newId(), newId()];
  await producer.addBulk('webhook', [{ jobId: jobGroupId(7), data: { eventIds: grouped } }]);
  const seen: string[] = [];
  const worker = createWorker(
    'webhook',
    workerRedis,
    prefix,
    (data) => {
      seen.push(...('eventId' in data ? [data.eventId] : data.eventIds));
      return Promise.resolve();
    },
    { concurrency: 1 },
  );
  void worker.run();
  try {
    const deadline = Date.now() + 10_000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([eventId, ...grouped]);
  } finally {
    await worker.close();
  }
  expect(await queueCounts(producer, redis, 'webhook')).toMatchObject({ waiting: 0, active: 0 });
});

it('refuses a script over the untagged (single-server) names of one queue: CROSSSLOT', async () => {
  // What BullMQ's scripts would meet without the tag: one queue's keys on different slots.
  const single = (suffix: string) =>
    `${waitListKey(prefix, 'webhook', false).replace(/:wait$/, '')}:${suffix}`;
  await expect(
    redis.eval("return redis.call('exists', KEYS[1], KEYS[2])", 2, single('wait'), single('meta')),
  ).rejects.toThrow(/CROSSSLOT|should belong to the same slot/);
  // Sent as it is (no auto-pipelining, as on a worker's connection), Redis itself refuses it.
  await expect(
    workerRedis.eval("return redis.call('exists', KEYS[1], KEYS[2])", 2, single('wait'), single('meta')),
  ).rejects.toThrow(/CROSSSLOT/);
  // The tagged names of the same keys are served by one script.
  const tagged = (suffix: string) =>
    `${waitListKey(prefix, 'webhook', true).replace(/:wait$/, '')}:${suffix}`;
  expect(
    await redis.eval("return redis.call('exists', KEYS[1], KEYS[2])", 2, tagged('wait'), tagged('meta')),
  ).toBe(1);
});

const limits: FlowLimits = {
  targetCap: 1,
  orgCap: 2,
  failureThreshold: 2,
  cooldownMs: 60_000,
  cooldownMaxMs: 60_000,
  leaseMs: 30_000,
};

/** Organizations whose flow keys fall on `n` different nodes (ids are random: draw until they do). */
async function orgsOnDistinctNodes(n: number): Promise<string[]> {
  const byNode = new Map<number, string>();
  for (let i = 0; i < 200 && byNode.size < n; i++) {
    const orgId = newId();
    const node = await cluster.nodeOf(`${prefix}:flow:{${orgId}}:inflight`);
    if (!byNode.has(node)) byNode.set(node, orgId);
  }
  return [...byNode.values()];
}

it('keeps flow gates and circuits per organization slot, organizations spread over the nodes', async () => {
  const flow = createFlow(redis, prefix, limits);
  const orgs = await orgsOnDistinctNodes(3);
  expect(orgs).toHaveLength(3);
  const failing: TargetRef[] = [];
  const all: TargetRef[] = [];
  for (const orgId of orgs) {
    const a = { orgId, targetId: newId() };
    const b = { orgId, targetId: newId() };
    all.push(a, b);
    // The target cap holds a second delivery; the org cap holds b's second; a release hands room
    // freed on a to b's parked job (the script reaches b's keys through the organization's tag).
    expect(await flow.acquire('webhook', a, 'a1')).toEqual({ go: true, probe: false });
    expect(await flow.acquire('webhook', a, 'a2')).toMatchObject({ go: false, reason: 'target_cap' });
    expect(await flow.acquire('webhook', b, 'b1')).toEqual({ go: true, probe: false });
    expect(await flow.release('webhook', b, 'b1', 'ok')).toMatchObject({ handed: [] });
    expect(await flow.acquire('webhook', b, 'b2')).toEqual({ go: true, probe: false });
    expect(await flow.acquire('webhook', b, 'b3')).toMatchObject({ go: false, reason: 'target_cap' });
    const freed = await flow.release('webhook', a, 'a1', 'fail');
    expect(freed.handed).toEqual([{ kind: 'webhook', targetId: a.targetId, jobId: 'a2' }]);
    expect((await flow.acquire('webhook', a, 'a2')).go).toBe(true);
    // A second consecutive failure opens a's circuit; the next delivery is held behind it.
    expect((await flow.release('webhook', a, 'a2', 'fail')).opened).toBe(true);
    expect(await flow.acquire('webhook', a, 'a3')).toMatchObject({ go: false, reason: 'circuit_open' });
    failing.push(a);
  }
  // One read of circuits whose organizations are on three different nodes.
  const circuits = await readCircuits(redis, prefix, all);
  for (const t of all) expect(circuits.get(t.targetId)?.state).toBe(failing.includes(t) ? 'open' : 'closed');
  expect(await countOpenCircuits(redis, prefix)).toBe(3);

  const byNode = await cluster.keysByNode(`${prefix}:flow:{*`);
  // Every key of one organization is on the node its tag hashes to, and each organization on its own.
  for (const orgId of orgs) {
    const holders = [...byNode.entries()].filter(([, keys]) => keys.some((k) => k.includes(orgId)));
    expect(holders.map(([port]) => port)).toEqual([await cluster.nodeOf(`{${orgId}}`)]);
  }
  expect([...byNode.values()].filter((keys) => keys.length > 0)).toHaveLength(3);
});

it('counts a sliding window per key and bumps the cache generation on the cluster', async () => {
  const limiter = createRateLimiter(redis, { prefix: `${prefix}:rl`, limit: 3, windowSeconds: 60 });
  const key = `ingest:${randomBytes(8).toString('hex')}`;
  const hits = [];
  for (let i = 0; i < 4; i++) hits.push((await limiter.hit(key)).allowed);
  expect(hits).toEqual([true, true, true, false]);
  // Hits made together on keys of different slots: each key's go in one script call, apart from the
  // others' (one call over all of them would be refused, CROSSSLOT), and each window counts its own.
  const keys = Array.from({ length: 6 }, () => `ingest:${randomBytes(8).toString('hex')}`);
  const together = await Promise.all(keys.flatMap((k) => [1, 2, 3, 4].map(() => limiter.hit(k))));
  expect(together.map((r) => r.allowed)).toEqual(keys.flatMap(() => [true, true, true, false]));
  expect(await redis.get(cacheGenerationKey(prefix))).toBeNull();
  await bumpCacheGeneration(redis, prefix);
  await bumpCacheGeneration(redis, prefix);
  expect(await redis.get(cacheGenerationKey(prefix))).toBe('2');
});

it('reports a cluster that cannot be reached as Redis unavailable (answered 503, not 500)', async () => {
  await producer.close();
  await cluster.stop();
  const started = Date.now();
  const err = await redis.get(cacheGenerationKey(prefix)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isRedisUnavailable(err)).toBe(true);
  // A request path fails fast, it does not hang on the outage.
  expect(Date.now() - started).toBeLessThan(5_000);
});
