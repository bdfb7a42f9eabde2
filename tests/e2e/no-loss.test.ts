// Proves that an accepted item is never lost: with steady load, SIGKILL of the delivery worker
// mid-run (its in-flight jobs come back when their locks lapse) and a flush of every Redis key of the
// deployment mid-run (the sweeper re-enqueues from Postgres) still end every accepted event
// DELIVERED. Delivery is at least once: duplicates are counted and printed, never required to be 0.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createRedis } from '@evds/queue';
import {
  seedWorkspace,
  type Receiver,
  type Stack,
  type TestWorkspace,
  startStackWithReceiver,
} from '@evds/testkit';
import { createWebhookTarget } from './helpers.ts';

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    env: { INGEST_RATE_LIMIT: '100000', DELIVERY_CONCURRENCY: '20' },
  }));
  ws = await seedWorkspace(stack.db);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `count` items in small concurrent batches; calls `fault` once, after `faultAfter` were accepted. */
async function load(
  target: string,
  count: number,
  faultAfter: number,
  fault: () => Promise<void>,
): Promise<string[]> {
  const accepted: string[] = [];
  let faulted = false;
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, j) =>
        stack.ingest<{ id: string }>(`/t/${target}`, { key: ws.apiKey, body: { seq: i + j } }),
      ),
    );
    for (const r of batch) if (r.status === 202) accepted.push(r.body.id);
    if (!faulted && accepted.length >= faultAfter) {
      faulted = true;
      await fault();
    }
  }
  return accepted;
}

async function waitAllDelivered(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await stack.db.selectFrom('events').select(['status']).where('id', 'in', ids).execute();
    const delivered = rows.filter((r) => r.status === 'DELIVERED').length;
    if (delivered === ids.length) return;
    if (Date.now() > deadline) throw new Error(`${delivered} of ${ids.length} delivered`);
    await sleep(250);
  }
}

function report(name: string, ids: string[]) {
  const seen = new Map<string, number>();
  for (const r of receiver.received) {
    const id = r.headers['webhook-id'] ?? '';
    if (ids.includes(id)) seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  const duplicates = [...seen.values()].reduce((n, c) => n + c - 1, 0);
  console.log(
    `${name}: accepted ${ids.length}, delivered ${seen.size}, duplicate deliveries ${duplicates}, lost ${ids.length - seen.size}`,
  );
  expect(seen.size).toBe(ids.length);
}

it('SIGKILL of the delivery worker mid-run loses nothing', async () => {
  // Slow answers keep many deliveries in flight when the worker is killed.
  receiver.setBehaviour(() => ({ status: 200, delayMs: 50 }));
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/kill`);
  const ids = await load(target.id, 400, 150, async () => {
    await stack.processes.get('delivery-worker')?.kill('SIGKILL');
    await sleep(300);
    await stack.start('delivery-worker');
  });
  await waitAllDelivered(ids, 60_000);
  report('worker SIGKILL', ids);
}, 90_000);

it('flushing Redis mid-run loses nothing', async () => {
  // Slow answers keep a backlog of waiting jobs in Redis when it is flushed: the target's 10 slots
  // (TARGET_MAX_IN_FLIGHT) then deliver about 33 items/s, far fewer than the 150 accepted before the
  // flush in any run (at 100 ms a slow ingest let the worker keep up, and no job was left to flush).
  receiver.setBehaviour(() => ({ status: 200, delayMs: 300 }));
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/flush`);
  const redis = createRedis(stack.env.REDIS_URL ?? '', { role: 'client' });
  try {
    const ids = await load(target.id, 400, 150, async () => {
      // Every key of this deployment (queues, schedulers, rate limits), as a FLUSHALL would, without
      // touching other test files sharing the server.
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${stack.env.REDIS_PREFIX}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    });
    await waitAllDelivered(ids, 60_000);
    report('redis flush', ids);
    const requeued = (stack.processes.get('delivery-worker')?.logs ?? [])
      .filter((l) => l.msg === 'sweeper re-enqueued items without a live job')
      .reduce((n, l) => n + Number(l.requeued), 0);
    console.log(`redis flush: the sweeper re-enqueued ${requeued} items whose jobs were flushed`);
    expect(requeued).toBeGreaterThan(0);
  } finally {
    redis.disconnect();
  }
}, 90_000);
