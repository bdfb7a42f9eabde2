// Proves the heap caps of packages/config (SERVICE_HEAP_MB) are safe with the largest bodies and
// payloads at full concurrency. Ingest, started with its own NODE_OPTIONS, accepts 32 concurrent
// bodies of just under a target's 256 KiB limit; the delivery worker, started with its own, delivers
// those and a backlog of 1 MiB payloads (written straight into the store: the largest body any route
// reads) with up to 100 deliveries in flight (the default). Both processes are still running at the end
// and every item arrived byte for byte: bodies and payloads are Buffers, outside the capped heap.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { serviceNodeOptions } from '@evds/config';
import { createProducer, createRedis } from '@evds/queue';
import {
  client,
  seedWorkspace,
  startStackWithReceiver,
  type Receiver,
  type ServiceProcess,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import { sql } from 'kysely';

const ACCEPTED = 160;
const BIG = 120;
const body = JSON.stringify({ blob: 'b'.repeat(250 * 1024) });
const bigPayload = JSON.stringify({ blob: 'p'.repeat(1024 * 1024 - 16) });

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;
let target: string;
let ingest: ServiceProcess;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    services: ['api'],
    // The caps per target and organization raised, so the worker's slots, not the caps, bound what it
    // holds; the attempt time-out as deployed (not the test stack's 2 s): 100 MiB going at once to one
    // receiver in this process can take longer, and a timed-out attempt is retried (a second arrival).
    env: {
      INGEST_RATE_LIMIT: '1000000',
      DELIVERY_CONCURRENCY: '100',
      TARGET_MAX_IN_FLIGHT: '1000',
      ORG_MAX_IN_FLIGHT: '1000',
      DELIVERY_TIMEOUT_MS: '15000',
    },
  }));
  stack.env.NODE_OPTIONS = serviceNodeOptions('ingest');
  ingest = await stack.start('ingest');
  ws = await seedWorkspace(stack.db);
  const r = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'webhook', name: 'large', url: `${receiver.url}/large` },
  });
  target = r.body.target.id;
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

it('ingest and the delivery worker keep running under their heap caps with the largest items', async () => {
  expect(serviceNodeOptions('ingest')).toMatch(/--max-old-space-size=\d+$/);
  const post = client(ingest.url);
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next++ < ACCEPTED) statuses.push((await post(`/t/${target}`, { key: ws.apiKey, body })).status);
    }),
  );
  expect(statuses.filter((s) => s === 202)).toHaveLength(ACCEPTED);
  expect(ingest.child.exitCode).toBeNull();

  // A backlog of the largest payloads, as a producer of /e/ (1 MiB bodies) would leave it.
  const seeded = await sql<{ id: string }>`
    insert into events (id, org_id, target_id, target_kind, event_type, status, payload, payload_size)
    select lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || substr(md5(g::text || random()::text), 1, 20),
           ${ws.orgId}, ${target}, 'webhook', 'large', 'QUEUED', convert_to(${bigPayload}, 'UTF8'), ${bigPayload.length}
    from generate_series(1, ${BIG}) g
    returning id`.execute(stack.db);
  const redis = createRedis(stack.env.REDIS_URL ?? '', { role: 'client' });
  const producer = createProducer(redis, stack.env.REDIS_PREFIX ?? '');
  await producer.addBulk(
    'webhook',
    seeded.rows.map((e) => ({ jobId: e.id, data: { eventId: e.id } })),
  );
  await producer.close();
  redis.disconnect();

  stack.env.NODE_OPTIONS = serviceNodeOptions('delivery-worker');
  expect(stack.env.NODE_OPTIONS).toMatch(/--max-old-space-size=\d+$/);
  const worker = await stack.start('delivery-worker');
  const arrived = await receiver.waitFor(ACCEPTED + BIG, 90_000);
  expect(arrived.filter((r) => r.body.length === body.length)).toHaveLength(ACCEPTED);
  expect(arrived.filter((r) => r.body.equals(Buffer.from(bigPayload)))).toHaveLength(BIG);
  expect(worker.child.exitCode).toBeNull();
  expect(ingest.child.exitCode).toBeNull();
}, 150_000);
