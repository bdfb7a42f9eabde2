// Proves that a tenant whose endpoint's name server never answers cannot delay anyone else's
// deliveries, with every service as its own process resolving names through a real DNS server on
// 127.0.0.1 (DNS_SERVERS): organization B's eight targets are created while their names
// (`dead-<n>.evds.test`) still answer, then the names go dead (queries dropped, more hung lookups than
// libuv has threads) and 200 items are queued for them; right after, organization A's target at
// `good.evds.test` receives 50 items, each within 2 s of its 202. B's attempts fail with a DNS
// time-out (ETIMEOUT, after DNS_TRIES tries of DNS_TIMEOUT_MS), logged as attempt errors, and the worker keeps
// running.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  seedWorkspace,
  startDnsServer,
  startStackWithReceiver,
  type DnsServer,
  type Receiver,
  type Stack,
} from '@evds/testkit';
import { sql } from 'kysely';
import { createWebhookTarget, pollUntil, sendMany, type EventView } from './helpers.ts';

const DEAD = Array.from({ length: 8 }, (_, i) => `dead-${i}.evds.test`);
const GOOD = 'good.evds.test';

let dns: DnsServer;
let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  dns = await startDnsServer({ table: { [GOOD]: ['127.0.0.1'] } });
  for (const name of DEAD) dns.table.set(name, ['127.0.0.1']);
  ({ stack, receiver } = await startStackWithReceiver({
    env: {
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '500',
      DNS_TRIES: '2',
      INGEST_RATE_LIMIT: '100000',
      // Longer than a lookup's budget (2 s), so a DNS time-out, not the attempt's own, ends a dead attempt.
      DELIVERY_TIMEOUT_MS: '4000',
    },
  }));
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await dns?.close();
});

it('delivers a healthy tenant within 2 s while another tenant’s name server never answers', async () => {
  const [a, b] = [await seedWorkspace(stack.db), await seedWorkspace(stack.db)];
  const good = await createWebhookTarget(stack, a, `https://${GOOD}:${receiver.port}/hook`);
  // The API checks a name when the target is created, so it must answer then; it dies afterwards.
  const dead: string[] = [];
  for (const name of DEAD) {
    dead.push((await createWebhookTarget(stack, b, `https://${name}:${receiver.port}/hook`)).id);
    dns.table.delete(name);
    dns.blackHole.add(name);
  }

  await Promise.all(dead.map((id) => sendMany(stack, b, id, 25, 16)));
  const accepted = await sendMany(stack, a, good.id, 50, 16);
  await receiver.waitFor(50, 20_000);

  const lags = [...accepted].map(([id, at]) => {
    const arrival = receiver.received.find((req) => req.headers['webhook-id'] === id)?.at;
    if (arrival === undefined) throw new Error(`event ${id} never arrived`);
    return arrival - at;
  });
  lags.sort((x, y) => x - y);
  await pollUntil('every healthy item DELIVERED', async () => {
    const r = await sql<{ n: string }>`
      select count(*) as n from events where target_id = ${good.id} and status = 'DELIVERED'`.execute(
      stack.db,
    );
    return Number(r.rows[0]?.n) === 50 ? true : undefined;
  });

  // Every attempt at a dead name that is logged failed on DNS, as an attempt error.
  const attempts = await pollUntil('attempts logged for the dead names', async () => {
    const r = await sql<{ event_id: string; error: string | null; status_code: number | null }>`
      select event_id, error, status_code from delivery_attempts where org_id = ${b.orgId}`.execute(stack.db);
    return r.rows.length >= DEAD.length ? r.rows : undefined;
  });
  const queries = DEAD.reduce((n, name) => n + dns.count(name, 'A'), 0);
  // And the events API shows it to the tenant.
  const event = await stack.api<EventView>(`/api/v1/events/${attempts[0]?.event_id}`, { key: b.apiKey });
  console.log(
    `healthy target, 50 items behind 200 for 8 dead names: lag p50 ${lags[25]} ms, max ${lags[49]} ms; ` +
      `dead targets: ${attempts.length} attempts logged, ${queries} A queries at the DNS server; ` +
      `an attempt error reads "${attempts[0]?.error}"`,
  );
  expect(lags[49]).toBeLessThan(2000);
  for (const attempt of attempts) {
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(/^ETIMEOUT: .*dead-\d\.evds\.test/);
  }
  expect(event.status).toBe(200);
  expect(event.body.delivery_attempts[0]?.error).toMatch(/ETIMEOUT/);
  expect(receiver.received.every((req) => req.headers.host?.startsWith(GOOD))).toBe(true);
  // Not a crash: the worker still runs and still delivers.
  expect(stack.processes.get('delivery-worker')?.child.exitCode).toBeNull();
}, 60_000);
