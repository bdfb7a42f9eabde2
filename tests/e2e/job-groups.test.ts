// Proves, with the real stack (ingest, the delivery worker, Postgres, Redis, an HTTPS receiver), that
// items ingest commits together travel as group jobs and are each delivered once, signed, also when
// flow control holds most of them back: with TARGET_MAX_IN_FLIGHT at 2 and a receiver that answers
// after 50 ms, a group's held items leave it as delayed jobs of their own and come back as slots free,
// and the receiver never sees more than two requests at once. A group job that runs again (a stalled
// one, say) leaves an item it carries that was attempted since to that item's own retry job.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createProducer, createRedis, jobGroupId, newJobGroup } from '@evds/queue';
import {
  createTestCa,
  seedWorkspace,
  startReceiver,
  startStack,
  type Receiver,
  type Stack,
} from '@evds/testkit';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { createWebhookTarget, pollUntil, sendMany } from './helpers.ts';

let stack: Stack;
let receiver: Receiver;
let failing: Receiver;

beforeAll(async () => {
  const ca = await createTestCa();
  receiver = await startReceiver(ca.server, () => ({ status: 200, delayMs: 50 }));
  failing = await startReceiver(ca.server, () => ({ status: 503 }));
  stack = await startStack({
    caFile: ca.caFile,
    env: { TARGET_MAX_IN_FLIGHT: '2', INGEST_RATE_LIMIT: '100000', RETRY_DELAYS_MS: '60000' },
  });
});
afterAll(async () => {
  await stack.stop();
  await Promise.all([receiver.close(), failing.close()]);
});

it('delivers every item of concurrent requests once, in group jobs, within the target cap', async () => {
  const ws = await seedWorkspace(stack.db);
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/groups`);
  const accepted = await sendMany(stack, ws, target.id, 60, 30);

  // At two in flight and 50 ms an answer the 60 go in 30 rounds, each through a release, a promotion and
  // a fresh job: 4-11 s here, alone or beside other suites. The budget leaves a slow shared machine room.
  const rows = await pollUntil(
    'every item delivered',
    async () => {
      const r = await sql<{ status: string; attempt_count: number; job_group: number | null }>`
        select status, attempt_count, job_group from events where target_id = ${target.id}`.execute(stack.db);
      return r.rows.every((e) => e.status === 'DELIVERED') ? r.rows : undefined;
    },
    60_000,
  );
  // Concurrent requests share commits, and so group jobs.
  expect(rows.filter((e) => e.job_group !== null).length).toBeGreaterThan(1);
  expect(rows.every((e) => e.attempt_count === 1)).toBe(true);

  // Once each, signed: no request beyond the 60 arrives a little later either.
  await new Promise((r) => setTimeout(r, 500));
  const ids = receiver.received.map((r) => r.headers['webhook-id']);
  expect(ids.sort()).toEqual([...accepted.keys()].sort());
  for (const r of receiver.received)
    expect(() => new Webhook(target.secret).verify(r.body.toString(), r.headers)).not.toThrow();

  // Two at a time at most: each answer takes 50 ms, so no 40 ms window holds three arrivals.
  const at = receiver.received.map((r) => r.at).sort((a, b) => a - b);
  const crowded = at.filter((t, i) => (at[i + 2] ?? Number.POSITIVE_INFINITY) < t + 40);
  expect(crowded).toEqual([]);
});

it('leaves an item attempted since to its own retry job when a group carrying it runs again', async () => {
  const ws = await seedWorkspace(stack.db);
  const target = await createWebhookTarget(stack, ws, `${failing.url}/hooks/retry`);
  const sent = await stack.ingest<{ id: string }>(`/t/${target.id}`, { key: ws.apiKey, body: { n: 1 } });
  const id = sent.body.id;
  // An item's first attempt is recorded a little after its answer (the worker batches the records).
  const recorded = (item: string) =>
    pollUntil('the first attempt recorded', async () => {
      const e = await stack.db
        .selectFrom('events')
        .select(['status', 'attempt_count'])
        .where('id', '=', item)
        .executeTakeFirst();
      return e?.status === 'RETRYING' && e.attempt_count === 1 ? e : undefined;
    });
  await failing.waitFor(1, 10_000);
  await recorded(id);

  // A group job carrying it runs (its retry is due in a minute): it makes no attempt.
  const redis = createRedis(stack.env.REDIS_URL ?? '', { role: 'client' });
  const producer = createProducer(redis, stack.env.REDIS_PREFIX ?? '');
  try {
    const other = (await stack.ingest<{ id: string }>(`/t/${target.id}`, { key: ws.apiKey, body: { n: 2 } }))
      .body.id;
    await failing.waitFor(2, 10_000);
    await recorded(other);
    const jobId = jobGroupId(newJobGroup());
    await producer.add('webhook', jobId, { eventIds: [id, other] });
    await pollUntil('the group job done', async () =>
      (await producer.queue('webhook').getJobState(jobId)) === 'unknown' ? true : undefined,
    );
  } finally {
    await producer.close();
    redis.disconnect();
  }
  const after = await stack.db
    .selectFrom('events')
    .select(['status', 'attempt_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(after).toEqual({ status: 'RETRYING', attempt_count: 1 });
  expect(failing.received).toHaveLength(2);
});
