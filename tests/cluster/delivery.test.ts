// Proves the service end to end on a real three-master Redis Cluster (started by the test kit from the
// installed redis-server): the api, ingest and delivery worker run as processes with REDIS_URL set to
// redis-cluster://..., and webhooks reach a real HTTPS receiver on 127.0.0.1 through the BullMQ queue,
// with retries; the per-target ingest rate limit answers 429; an Idempotency-Key repeat returns the
// first item; a disabled target is refused on the very next request (the API bumps the cache generation
// the ingest caches watch); the per-target in-flight limit holds deliveries back; a target's circuit
// opens, is read back through the API and closes. Two organizations whose flow keys hash to different
// nodes leave their keys on those two nodes: the keys are spread per organization, not in one slot.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { unusedPort } from '@evds/localenv';
import { cacheGenerationKey, createRedis, type Redis } from '@evds/queue';
import {
  createTestCa,
  seedWorkspace,
  startReceiver,
  startRedisCluster,
  startStack,
  type Receiver,
  type RedisClusterHarness,
  type Stack,
  type TestCa,
  type TestWorkspace,
} from '@evds/testkit';
import { createWebhookTarget, pollUntil, waitForStatus } from '../e2e/helpers.ts';

const RATE_LIMIT = 20;

let cluster: RedisClusterHarness;
let ca: TestCa;
let receiver: Receiver;
let late: Receiver | undefined;
let stack: Stack;
let redis: Redis;
let ws: TestWorkspace;
let other: TestWorkspace;

const flowNode = (orgId: string) => cluster.nodeOf(`{${orgId}}`);

beforeAll(async () => {
  cluster = await startRedisCluster();
  ca = await createTestCa();
  // "/retry" fails twice then answers; "/slow" takes 300 ms; everything else answers at once.
  const seen = new Map<string, number>();
  receiver = await startReceiver(ca.server, (req) => {
    const n = (seen.get(req.path) ?? 0) + 1;
    seen.set(req.path, n);
    if (req.path === '/retry' && n <= 2) return { status: 500 };
    if (req.path === '/slow') return { status: 200, delayMs: 300 };
    return { status: 200 };
  });
  stack = await startStack({
    caFile: ca.caFile,
    env: {
      REDIS_URL: cluster.url,
      INGEST_RATE_LIMIT: String(RATE_LIMIT),
      TARGET_MAX_IN_FLIGHT: '1',
      CIRCUIT_FAILURE_THRESHOLD: '3',
      CIRCUIT_COOLDOWN_MS: '1000',
      CIRCUIT_COOLDOWN_MAX_MS: '2000',
      RETRY_DELAYS_MS: '200,200,200,200,200',
    },
  });
  redis = createRedis(cluster.url, { role: 'client', name: 'cluster-e2e' });
  ws = await seedWorkspace(stack.db);
  // A second organization whose keys hash to another node than the first one's.
  for (let i = 0; i < 50 && !other; i++) {
    const candidate = await seedWorkspace(stack.db);
    if ((await flowNode(candidate.orgId)) !== (await flowNode(ws.orgId))) other = candidate;
  }
}, 90_000);
afterAll(async () => {
  await redis?.quit();
  await stack?.stop();
  await receiver?.close();
  await late?.close();
  await cluster?.stop();
});

const ingest = (targetId: string, body: unknown, headers: Record<string, string> = {}, key = ws.apiKey) =>
  stack.ingest<{ id: string }>(`/t/${targetId}`, { key, body, headers });

/** A series of the delivery worker's metrics, by name and some of its labels. */
async function metric(name: string, ...labels: string[]): Promise<number> {
  const text = await (await fetch(`${stack.processes.get('delivery-worker')?.metricsUrl}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)));
  return Number(found?.split(' ').pop() ?? NaN);
}

it('delivers through the queue, retrying a failing receiver until it answers', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/retry`);
  const r = await ingest(target.id, { order: 1 });
  expect(r.status).toBe(202);
  const event = await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
  expect(event.delivery_attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
}, 30_000);

it('answers 429 past the per-target ingest rate limit', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/limited`);
  const statuses = [];
  for (let i = 0; i < RATE_LIMIT; i++) statuses.push((await ingest(target.id, { i })).status);
  expect(statuses).toEqual(Array<number>(RATE_LIMIT).fill(202));
  const over = await ingest(target.id, { i: RATE_LIMIT });
  expect([over.status, (over.body as unknown as { code: string }).code]).toEqual([429, 'rate_limited']);
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
}, 30_000);

it('answers an Idempotency-Key repeat with the first item', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/idem`);
  const first = await ingest(target.id, { once: true }, { 'idempotency-key': 'k-1' });
  const again = await ingest(target.id, { once: true }, { 'idempotency-key': 'k-1' });
  expect([first.status, again.status]).toEqual([202, 202]);
  expect(again.body.id).toBe(first.body.id);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  await waitForStatus(stack, ws, first.body.id, 'DELIVERED');
});

it('refuses a target on the next request after it is disabled (the cache generation moved)', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/cached`);
  // Twice: the second is answered from the ingest's cache.
  expect((await ingest(target.id, { n: 1 })).status).toBe(202);
  expect((await ingest(target.id, { n: 2 })).status).toBe(202);
  const before = Number((await redis.get(cacheGenerationKey(stack.env.REDIS_PREFIX ?? ''))) ?? 0);
  const off = await stack.api(`/api/v1/targets/${target.id}`, {
    key: ws.apiKey,
    method: 'PATCH',
    body: { enabled: false },
  });
  expect(off.status).toBe(200);
  expect(Number(await redis.get(cacheGenerationKey(stack.env.REDIS_PREFIX ?? '')))).toBeGreaterThan(before);
  const refused = await ingest(target.id, { n: 3 });
  expect([refused.status, (refused.body as unknown as { code: string }).code]).toEqual([
    409,
    'target_disabled',
  ]);
});

it('holds deliveries past the per-target in-flight limit', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/slow`);
  const before = receiver.received.filter((x) => x.path === '/slow').length;
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push((await ingest(target.id, { i })).body.id);
  for (const id of ids) await waitForStatus(stack, ws, id, 'DELIVERED', 30_000);
  // One at a time: each request arrived after the previous one's 300 ms answer.
  const arrivals = receiver.received
    .filter((x) => x.path === '/slow')
    .slice(before)
    .map((x) => x.at)
    .sort((a, b) => a - b);
  expect(arrivals).toHaveLength(4);
  for (let i = 1; i < arrivals.length; i++)
    expect((arrivals[i] ?? 0) - (arrivals[i - 1] ?? 0)).toBeGreaterThanOrEqual(280);
  expect(await metric('evds_deliveries_held_total', 'kind="webhook"', 'reason="target_cap"')).toBeGreaterThan(
    0,
  );
}, 60_000);

it('opens a failing target circuit, reads it through the API, and closes it when the target answers', async () => {
  const port = await unusedPort();
  const target = await createWebhookTarget(stack, ws, `https://127.0.0.1:${port}/hook`);
  const health = async () =>
    (
      await stack.api<{ target: { health: { circuit: string | null; status: string } } }>(
        `/api/v1/targets/${target.id}`,
        { key: ws.apiKey },
      )
    ).body.target.health;
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push((await ingest(target.id, { i })).body.id);
  await pollUntil(
    'the circuit to open',
    async () => ((await health()).circuit === 'open' ? true : undefined),
    20_000,
  );
  expect(await metric('evds_circuits_open')).toBe(1);
  late = await startReceiver(ca.server, undefined, { port });
  for (const id of ids) await waitForStatus(stack, ws, id, 'DELIVERED', 30_000);
  expect(await health()).toMatchObject({ circuit: 'closed', status: 'healthy' });
}, 60_000);

it('spreads keys over the nodes: each organization on the node its tag hashes to', async () => {
  expect(other).toBeDefined();
  const mine = await createWebhookTarget(stack, ws, `${receiver.url}/mine`);
  const theirs = await createWebhookTarget(stack, other, `${receiver.url}/theirs`);
  const a = await ingest(mine.id, { org: 1 });
  const b = await ingest(theirs.id, { org: 2 }, {}, other.apiKey);
  await waitForStatus(stack, ws, a.body.id, 'DELIVERED');
  await waitForStatus(stack, other, b.body.id, 'DELIVERED');
  // Each delivery leaves its target's circuit (closed, last success) under its organization's tag.
  const byNode = await cluster.keysByNode(`${stack.env.REDIS_PREFIX}:flow:*:circuit`);
  const holder = (targetId: string) =>
    [...byNode.entries()].filter(([, keys]) => keys.some((k) => k.includes(targetId))).map(([port]) => port);
  expect(holder(mine.id)).toEqual([await flowNode(ws.orgId)]);
  expect(holder(theirs.id)).toEqual([await flowNode(other.orgId)]);
  expect(holder(mine.id)).not.toEqual(holder(theirs.id));
  // The queue, the rate-limit windows and the cache generation are there too.
  const all = [...(await cluster.keysByNode(`${stack.env.REDIS_PREFIX}:*`)).values()].flat();
  expect(all).toEqual(
    expect.arrayContaining([
      `${stack.env.REDIS_PREFIX}:bull:{webhook-delivery}:meta`,
      `${stack.env.REDIS_PREFIX}:rl:ingest:${mine.id}`,
      `${stack.env.REDIS_PREFIX}:cache-generation`,
    ]),
  );
}, 30_000);
