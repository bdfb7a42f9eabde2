// The sweeper against real Postgres and Redis: it re-enqueues an overdue item whose job is gone or
// dead, leaves one whose job is still scheduled (its own, or the group job it was enqueued in), and
// never repeats an attempt that completed while it looked (its listing of overdue items can be older
// than the job states it reads).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  createOrganization,
  createTarget,
  insertItems,
  listOverdue,
  recordAttempts,
  type Db,
  type DueItem,
} from '@evds/db';
import { requeueDead, sweep } from '@evds/delivery';
import { newAttemptId, newId } from '@evds/domain';
import {
  attemptJobId,
  createProducer,
  createRedis,
  createWorker,
  jobGroupId,
  newJobGroup,
  type Producer,
  type Redis,
} from '@evds/queue';
import { createTestDatabase, testRedisPrefix, testRedisUrl, type TestDatabase } from '@evds/testkit';
import { sql } from 'kysely';

let database: TestDatabase;
let db: Db;
let redis: Redis;
let producer: Producer;
const orgId = newId();
const targetId = newId();
const prefix = testRedisPrefix();

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  redis = createRedis(testRedisUrl(), { role: 'client' });
  producer = createProducer(redis, prefix);
  await createOrganization(db, { id: orgId, name: 'Sweep', slug: `sweep-${orgId.slice(0, 8)}` });
  await createTarget(db, {
    id: targetId,
    org_id: orgId,
    kind: 'webhook',
    name: 'hook',
    url: 'https://a.test/',
  });
});
afterAll(async () => {
  await producer.queue('webhook').obliterate({ force: true });
  await producer.close();
  redis.disconnect();
  await database.drop();
});

/** A committed item, made overdue by a minute; with `jobGroup`, committed as a member of that group. */
async function overdueItem(jobGroup?: number): Promise<string> {
  const id = newId();
  await insertItems(db, [
    {
      id,
      orgId,
      targetId,
      kind: 'webhook',
      eventType: null,
      correlationId: null,
      payload: Buffer.from('{}'),
      requestId: null,
      jobGroup,
    },
  ]);
  await db
    .updateTable('events')
    .set({ next_attempt_at: sql<Date>`now() - interval '1 minute'` })
    .where('id', '=', id)
    .execute();
  return id;
}

const listed = async (id: string): Promise<DueItem> => {
  const item = (await listOverdue(db, new Date(), 1000)).find((d) => d.id === id);
  if (!item) throw new Error(`${id} is not overdue`);
  return item;
};

/** Lets a real worker run the queue's jobs (doing nothing) until `jobId` has completed (and, as every
 * completed job is, been removed). */
async function complete(jobId: string): Promise<void> {
  const conn = createRedis(testRedisUrl(), { role: 'worker' });
  const worker = createWorker('webhook', conn, prefix, () => Promise.resolve(), { concurrency: 1 });
  void worker.run();
  try {
    const queue = producer.queue('webhook');
    for (let i = 0; (await queue.getJobState(jobId)) !== 'unknown'; i++) {
      if (i > 200) throw new Error(`job ${jobId} did not complete`);
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await worker.close();
    conn.disconnect();
  }
}

it('re-enqueues an overdue item that has no job, and leaves one whose job is waiting', async () => {
  const orphan = await overdueItem();
  const queued = await overdueItem();
  await producer.add('webhook', attemptJobId(queued, 0), { eventId: queued });

  expect(await sweep(db, producer, 1000)).toBe(1);
  expect(await producer.queue('webhook').getJobState(attemptJobId(orphan, 0))).toBe('waiting');
  // A second sweep finds both jobs waiting: nothing more to do.
  expect(await sweep(db, producer, 1000)).toBe(0);
});

it('does not repeat an attempt that completed after the overdue listing was read', async () => {
  const id = await overdueItem();
  const jobId = attemptJobId(id, 0);
  await producer.add('webhook', jobId, { eventId: id });
  const stale = await listed(id);

  // Meanwhile the job runs: its attempt fails and is recorded (the item moves to attempt 1 with a
  // retry due later), then the job completes.
  await recordAttempts(db, [
    {
      attempt: {
        id: newAttemptId(),
        event_id: id,
        org_id: orgId,
        target_id: targetId,
        attempt_number: 1,
        status_code: 503,
        duration_ms: 5,
        attempted_at: new Date(),
        response_body: null,
        error: null,
        a2a_task_id: null,
        a2a_task_state: null,
      },
      expectedAttemptCount: 0,
      outcome: { status: 'RETRYING', nextAttemptAt: new Date(Date.now() + 60_000) },
    },
  ]);
  await producer.queue('webhook').remove(jobId);
  await producer.add('webhook', jobId, { eventId: id });
  await complete(jobId);

  // The stale listing still says attempt 0 with a dead job; Postgres, read again, says otherwise.
  expect(await requeueDead(db, producer, [stale])).toBe(0);
  expect(await producer.queue('webhook').getJobState(jobId)).toBe('unknown');

  // The same listing, had the item not moved, would be re-enqueued.
  const other = await overdueItem();
  await producer.add('webhook', attemptJobId(other, 0), { eventId: other });
  await complete(attemptJobId(other, 0));
  expect(await requeueDead(db, producer, [await listed(other)])).toBe(1);
  expect(await producer.queue('webhook').getJobState(attemptJobId(other, 0))).toBe('waiting');
});

it('leaves the items of a group job that still waits, and re-enqueues them one by one once it is gone', async () => {
  const group = newJobGroup();
  const members = [await overdueItem(group), await overdueItem(group)];
  await producer.add('webhook', jobGroupId(group), { eventIds: members });
  expect((await listed(members[0] ?? '')).job_group).toBe(group);

  // Waiting in its group: no job of their own, and yet nothing to do.
  expect(await requeueDead(db, producer, await Promise.all(members.map(listed)))).toBe(0);

  // The group's job ran (here, a worker that does nothing) and left the items pending: each gets a job.
  await complete(jobGroupId(group));
  expect(await requeueDead(db, producer, await Promise.all(members.map(listed)))).toBe(2);
  const queue = producer.queue('webhook');
  expect(await Promise.all(members.map((id) => queue.getJobState(attemptJobId(id, 0))))).toEqual([
    'waiting',
    'waiting',
  ]);
  // Their own jobs now count: a second look finds nothing dead.
  expect(await requeueDead(db, producer, await Promise.all(members.map(listed)))).toBe(0);
});

it('leaves an item that left its group for a delayed job of its own (held back by flow control)', async () => {
  const group = newJobGroup();
  const held = await overdueItem(group);
  await producer.add('webhook', attemptJobId(held, 0), { eventId: held }, { delayMs: 60_000 });
  expect(await producer.queue('webhook').getJobState(jobGroupId(group))).toBe('unknown');
  expect(await requeueDead(db, producer, [await listed(held)])).toBe(0);
});
