// The latency floor's worker (bench/floor.ts), run as its own process: the hops a delivery must make
// and nothing else. It takes items off the queue (BLMPOP off the Redis list, up to 100 under way; or
// with FLOOR_BULLMQ set a BullMQ Worker at the service's concurrency of 100), POSTs each to the receiver
// over keep-alive HTTPS with undici (as the service does) and marks the delivered ones in Postgres, one
// UPDATE per event-loop turn. No load from Postgres (the payload travels in the queue), no signature,
// flow control or attempt log: a floor for the service's worker.
import { createRedis } from '@evds/queue';
import { Worker } from 'bullmq';
import pg from 'pg';
import { Agent, request } from 'undici';

interface Item {
  id: string;
  target: string;
  payload: string;
}

const queue = process.env.FLOOR_QUEUE ?? 'floor';
const receiver = process.env.FLOOR_RECEIVER ?? '';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const redis = createRedis(process.env.REDIS_URL ?? '', { role: 'worker' });
const agent = new Agent({ keepAliveTimeout: 60_000, connections: 100 });

const delivered: string[] = [];
function record(id: string): void {
  if (delivered.length === 0)
    setImmediate(() => {
      const ids = delivered.splice(0);
      pool
        .query({
          name: 'floor_delivered',
          text: 'update floor_items set delivered_at = now() where id = any($1::text[])',
          values: [ids],
        })
        .catch(() => {});
    });
  delivered.push(id);
}

async function deliver(item: Item): Promise<void> {
  try {
    const res = await request(`${receiver}/hook/${item.target}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'webhook-id': item.id },
      body: item.payload,
    });
    await res.body.dump();
    if (res.statusCode < 300) record(item.id);
  } catch {
    // A floor: a failed send is not retried, and shows as an item that never arrived.
  }
}

/** Deliveries under way at once, as the service's DELIVERY_CONCURRENCY (and BullMQ's Worker here). */
const CONCURRENCY = 100;
let running = true;
process.on('SIGTERM', () => {
  running = false;
  setTimeout(() => process.exit(0), 100);
});
if (process.env.FLOOR_BULLMQ) {
  const worker = new Worker<Item>('floor', (job) => deliver(job.data), {
    connection: redis,
    prefix: queue,
    concurrency: CONCURRENCY,
  });
  await worker.waitUntilReady();
  process.stdout.write('{"ready":true}\n');
} else {
  process.stdout.write('{"ready":true}\n');
  let inFlight = 0;
  let slotFreed = () => {};
  while (running) {
    if (inFlight >= CONCURRENCY) await new Promise<void>((r) => (slotFreed = r));
    const room = String(CONCURRENCY - inFlight);
    const popped = (await redis.call('blmpop', '1', '1', queue, 'LEFT', 'COUNT', room)) as
      [string, string[]] | null;
    for (const raw of popped?.[1] ?? []) {
      inFlight++;
      void deliver(JSON.parse(raw) as Item).finally(() => {
        inFlight--;
        slotFreed();
      });
    }
  }
}
