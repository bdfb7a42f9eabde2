// Proves, with the real stack (ingest, the delivery worker, Postgres, Redis, an HTTPS receiver), that
// items ingest commits together travel as group jobs and are each delivered once, signed, also when
// flow control holds most of them back: with TARGET_MAX_IN_FLIGHT at 2 and a receiver that answers
// after 50 ms, a group's held items leave it as delayed jobs of their own and come back as slots free,
// and the receiver never sees more than two requests at once.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
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

beforeAll(async () => {
  const ca = await createTestCa();
  receiver = await startReceiver(ca.server, () => ({ status: 200, delayMs: 50 }));
  stack = await startStack({
    caFile: ca.caFile,
    env: { TARGET_MAX_IN_FLIGHT: '2', INGEST_RATE_LIMIT: '100000' },
  });
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

it('delivers every item of concurrent requests once, in group jobs, within the target cap', async () => {
  const ws = await seedWorkspace(stack.db);
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/groups`);
  const accepted = await sendMany(stack, ws, target.id, 60, 30);

  const rows = await pollUntil(
    'every item delivered',
    async () => {
      const r = await sql<{ status: string; attempt_count: number; job_group: number | null }>`
        select status, attempt_count, job_group from events where target_id = ${target.id}`.execute(stack.db);
      return r.rows.every((e) => e.status === 'DELIVERED') ? r.rows : undefined;
    },
    30_000,
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
