// The latency floor's ingest (bench/floor.ts), run as its own process: the hops an accepted item must
// make before its 202 and nothing else. node:http; the items of one event-loop turn share one durable
// INSERT (synchronous_commit on, a named statement) and then one push onto the queue: an RPUSH onto a
// Redis list, or with FLOOR_BULLMQ set one BullMQ add (addBulk for several) as the design's queue. Each
// is answered 202 with its id after both. No credentials, validation, rate limit or counters: the
// service does all of these and more, so what this process answers in is a floor for it.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedis } from '@evds/queue';
import { Queue } from 'bullmq';
import pg from 'pg';

const queue = process.env.FLOOR_QUEUE ?? 'floor';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const redis = createRedis(process.env.REDIS_URL ?? '', { role: 'client' });
const bull = process.env.FLOOR_BULLMQ ? new Queue('floor', { connection: redis, prefix: queue }) : undefined;
const done = { removeOnComplete: true, removeOnFail: true };

interface Item {
  id: string;
  target: string;
  payload: string;
  answer: (ok: boolean) => void;
}
const turn: Item[] = [];

async function enqueue(items: Item[]): Promise<void> {
  const data = items.map(({ id, target, payload }) => ({ id, target, payload }));
  if (!bull) await redis.rpush(queue, ...data.map((d) => JSON.stringify(d)));
  else if (data.length === 1) await bull.add('floor', data[0], done);
  else await bull.addBulk(data.map((d) => ({ name: 'floor', data: d, opts: done })));
}

async function commit(items: Item[]): Promise<void> {
  try {
    await pool.query({
      name: 'floor_insert',
      text: 'insert into floor_items (id, target, payload) select * from unnest($1::text[], $2::text[], $3::text[])',
      values: [items.map((i) => i.id), items.map((i) => i.target), items.map((i) => i.payload)],
    });
    await enqueue(items);
    for (const i of items) i.answer(true);
  } catch {
    for (const i of items) i.answer(false);
  }
}
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const id = randomBytes(16).toString('hex');
    const answer = (ok: boolean) => {
      const body = ok ? `{"id":"${id}"}` : '{"error":"not accepted"}';
      res
        .writeHead(ok ? 202 : 503, { 'content-type': 'application/json', 'content-length': body.length })
        .end(body);
    };
    if (turn.length === 0) setImmediate(() => void commit(turn.splice(0)));
    turn.push({
      id,
      target: req.url?.split('/')[2] ?? '',
      payload: Buffer.concat(chunks).toString(),
      answer,
    });
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n'),
);
process.on('SIGTERM', () => process.exit(0));
