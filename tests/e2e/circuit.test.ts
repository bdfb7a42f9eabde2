// Proves a target's circuit end to end, read the way a user and an operator would: a target whose
// port refuses connections fails its first attempts, its circuit opens (the API's health says failing,
// open, the consecutive failures and when the next probe goes), the other deliveries are held without
// attempts (so none runs out of its retry schedule), single probes test it, and once the port listens
// the probe's success closes the circuit and every item is delivered; the worker's metrics count the
// holds and the circuit's moves.
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
import { createWebhookTarget, pollUntil } from './helpers.ts';

let stack: Stack;
let ca: TestCa;
let receiver: Receiver | undefined;

beforeAll(async () => {
  ca = await createTestCa();
  stack = await startStack({
    caFile: ca.caFile,
    env: {
      CIRCUIT_FAILURE_THRESHOLD: '3',
      CIRCUIT_COOLDOWN_MS: '1000',
      CIRCUIT_COOLDOWN_MAX_MS: '2000',
      RETRY_DELAYS_MS: '200,200,200,200,200',
    },
  });
});
afterAll(async () => {
  await stack.stop();
  await receiver?.close();
});

interface Health {
  status: string;
  circuit: string | null;
  consecutive_failures: number;
  failing_since: number | null;
  next_probe_at: number | null;
  last_success_at: number | null;
}

const count = async (query: ReturnType<typeof sql<{ n: string }>>) =>
  Number((await query.execute(stack.db)).rows[0]?.n ?? 0);

/** A series of the delivery worker's metrics, by name and some of its labels (every series also has `service`). */
async function metric(name: string, ...labels: string[]): Promise<number> {
  const text = await (await fetch(`${stack.processes.get('delivery-worker')?.metricsUrl}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)));
  return Number(found?.split(' ').pop() ?? NaN);
}

it('opens on failures, holds without attempts, probes, and closes when the target answers', async () => {
  const ws = await seedWorkspace(stack.db);
  const port = await unusedPort();
  const target = await createWebhookTarget(stack, ws, `https://127.0.0.1:${port}/hook`);
  const health = async () =>
    (await stack.api<{ target: { health: Health } }>(`/api/v1/targets/${target.id}`, { key: ws.apiKey })).body
      .target.health;
  expect((await health()).status).toBe('unknown');

  for (let i = 0; i < 30; i++) {
    const r = await stack.ingest(`/t/${target.id}`, { key: ws.apiKey, body: { i } });
    expect(r.status).toBe(202);
  }
  // The circuit moves when a failed attempt frees its slot (Redis); the failures are counted on the
  // target's row when the attempt's record commits (Postgres), alongside: the count can trail the open
  // circuit by one batch of records.
  const open = await pollUntil('the circuit to open and its failures to be counted', async () => {
    const h = await health();
    return h.circuit === 'open' && h.consecutive_failures >= 3 ? h : undefined;
  });
  expect(open).toMatchObject({ status: 'failing', last_success_at: null });
  expect(open.failing_since).toEqual(expect.any(Number));
  expect(open.next_probe_at).toEqual(expect.any(Number));

  // Two cooldowns later: a probe or two were made, the rest held. No item used up its six attempts.
  await new Promise((r) => setTimeout(r, 3000));
  const attempts = await count(
    sql`select count(*) as n from delivery_attempts where target_id = ${target.id}`,
  );
  console.log(
    `30 items to a refusing target: ${attempts} attempts in the first ~4 s (every item's six attempts would be 180)`,
  );
  expect(attempts).toBeLessThan(30);
  expect(
    await count(sql`select count(*) as n from events where target_id = ${target.id} and status = 'EXPIRED'`),
  ).toBe(0);
  expect(
    await metric('evds_deliveries_held_total', 'kind="webhook"', 'reason="circuit_open"'),
  ).toBeGreaterThan(0);
  expect(
    await metric('evds_circuit_transitions_total', 'kind="webhook"', 'move="opened"'),
  ).toBeGreaterThanOrEqual(1);
  expect(await metric('evds_circuits_open')).toBe(1);

  receiver = await startReceiver(ca.server, undefined, { port });
  await pollUntil(
    'all 30 delivered',
    async () =>
      (await count(
        sql`select count(*) as n from events where target_id = ${target.id} and status = 'DELIVERED'`,
      )) === 30
        ? true
        : undefined,
    20_000,
  );
  const closed = await health();
  expect(closed).toMatchObject({
    status: 'healthy',
    circuit: 'closed',
    consecutive_failures: 0,
    failing_since: null,
  });
  expect(closed.last_success_at).toEqual(expect.any(Number));
  expect(
    await metric('evds_circuit_transitions_total', 'kind="webhook"', 'move="closed"'),
  ).toBeGreaterThanOrEqual(1);
  expect(await metric('evds_circuits_open')).toBe(0);
}, 60_000);
