// Against the test run's real Redis: the counts and the oldest waiting job's age come from the keys
// BullMQ really uses, and waitListKey (the list the Kubernetes autoscalers watch) is one of them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createProducer, type Producer } from './producer.ts';
import { createRedis, type Redis } from './redis.ts';
import { queueCounts, waitListKey } from './stats.ts';

const prefix = `evdst_${randomBytes(5).toString('hex')}`;
let redis: Redis;
let producer: Producer;

beforeAll(() => {
  const url = process.env.EVDS_TEST_REDIS;
  if (!url) throw new Error('EVDS_TEST_REDIS is not set: run tests through jest');
  redis = createRedis(url, { role: 'client' });
  producer = createProducer(redis, prefix);
});
afterAll(async () => {
  await producer.queue('webhook').obliterate({ force: true });
  await producer.close();
  redis.disconnect();
});

const id = () => randomBytes(16).toString('hex');

it('counts waiting and delayed jobs and ages the oldest waiting one from when it became ready', async () => {
  expect(await queueCounts(producer, redis, 'webhook')).toEqual({
    waiting: 0,
    active: 0,
    delayed: 0,
    failed: 0,
    oldestWaitingAgeSeconds: 0,
  });
  const first = id();
  await producer.add('webhook', first, { eventId: first });
  await new Promise((r) => setTimeout(r, 30));
  await producer.addBulk(
    'webhook',
    [id(), id()].map((jobId) => ({ jobId, data: { eventId: jobId } })),
  );
  const later = id();
  await producer.add('webhook', later, { eventId: later }, { delayMs: 60_000 });

  expect(await redis.llen(waitListKey(prefix, 'webhook'))).toBe(3);
  expect(await redis.lindex(waitListKey(prefix, 'webhook'), -1)).toBe(first);

  const job = await producer.queue('webhook').getJob(first);
  const counts = await queueCounts(producer, redis, 'webhook', (job?.timestamp ?? 0) + 5000);
  expect(counts).toEqual({ waiting: 3, active: 0, delayed: 1, failed: 0, oldestWaitingAgeSeconds: 5 });
});
