// Reliability under faults: steady load over two ingest replicas while, one after another, the
// delivery worker is SIGKILLed, an ingest replica is SIGKILLed, Redis restarts empty, Postgres stops
// for a few seconds and the receiver fails half its requests. Everything runs over a private Postgres
// and Redis of this file's own (the shared servers other files use are never touched). Then the
// reconciliation: every 202 ends delivered, every answered non-202 left no item and no usage record,
// ingestion answered 503 with Retry-After (never 202) while Postgres was down, no service exited.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createProducer, createRedis } from '@evds/queue';
import {
  client,
  otherAnswers,
  runWithFaults,
  startFaultStack,
  type FaultRunResult,
  type FaultStack,
  type LoadTarget,
} from '@evds/testkit';

let stack: FaultStack;
let result: FaultRunResult | undefined;

beforeAll(async () => {
  stack = await startFaultStack({ log: (m) => console.log(`faults: ${m}`) });
}, 120_000);

afterAll(async () => {
  if (result === undefined || result.total.lost > 0) {
    // Leave the services' complaints in the output for whoever reads the failure.
    for (const p of stack?.services() ?? []) {
      const errors = p.logs.filter((l) => Number(l.level) >= 50).slice(-5);
      if (errors.length) console.log(`${p.name} ${p.child.pid} errors:\n${JSON.stringify(errors, null, 1)}`);
    }
  }
  // EVDS_FAULTS_LOGS=<dir> keeps every service's output (replaced processes too) for a post-mortem.
  if (process.env.EVDS_FAULTS_LOGS) {
    await stack?.writeLogs(process.env.EVDS_FAULTS_LOGS);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      `${process.env.EVDS_FAULTS_LOGS}/outcomes.json`,
      JSON.stringify({ windows: result?.windows, outcomes: result?.outcomes }),
    );
  }
  await stack?.stop();
}, 60_000);

it('loses nothing, leaks nothing and answers 503 while Postgres is down, through five faults', async () => {
  const targets: LoadTarget[] = [
    { id: await stack.createTarget('webhook', 'faults-a'), kind: 'webhook' },
    { id: await stack.createTarget('webhook', 'faults-b'), kind: 'webhook' },
    { id: await stack.createTarget('mailbox', 'faults-m'), kind: 'mailbox' },
  ];
  result = await runWithFaults(stack, {
    targets,
    ratePerSecond: 150,
    durationMs: 40_000,
    faults: [
      { atMs: 4_000, name: 'worker-kill' },
      { atMs: 10_000, name: 'ingest-kill' },
      { atMs: 16_000, name: 'redis-restart-empty' },
      { atMs: 22_000, name: 'postgres-outage' },
      { atMs: 30_000, name: 'receiver-failures' },
    ],
    faultOptions: {
      // Long enough that requests are both sent and answered inside it on a loaded machine, where
      // one answer can take a second.
      redisDownMs: Number(process.env.EVDS_FAULTS_REDIS_DOWN_MS ?? 3_000),
      postgresDownMs: 4_000,
      receiverFailMs: 6_000,
      receiverFailRate: 0.5,
    },
    settleMs: 60_000,
  });
  const r = result;
  console.log(r.lines.join('\n'));

  console.log(`answers other than 202/503: ${otherAnswers(r.outcomes)}`);

  expect(stack.unexpectedExits).toEqual([]);
  expect(r.windows.map((w) => w.name)).toHaveLength(5);
  expect(r.pending).toBe(0);
  expect(r.total.lost).toBe(0);
  expect(r.store.undelivered).toEqual([]);
  expect(r.total.leaked).toBe(0);
  expect(r.total.usageErrors).toBe(0);
  expect(r.store).toMatchObject({ usageErrors: 0, orphanUsage: 0 });
  expect(r.total.idempotencyErrors).toBe(0);
  expect(r.total.status500).toBe(0);
  expect(r.total.other).toBe(0);
  expect(r.outage.checked).toBeGreaterThan(0);
  expect(r.outage.violations).toEqual([]);
  // With Redis away, ingestion went on (at its usual pace, not stalled on Redis calls).
  expect(r.redisOutage.checked).toBeGreaterThan(0);
  expect(r.redisOutage.refused).toEqual([]);
  // The management API, too, answers 503 with Retry-After (not 500) while its database is away.
  const pgWindow = r.windows.find((w) => w.name === 'postgres-outage');
  expect(pgWindow?.apiProbe).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
  // Every fault healed: items were accepted while or right after it happened.
  for (const { figures } of r.perFault) expect(figures.accepted).toBeGreaterThan(0);
  // And every service answers its health check again.
  for (const p of stack.services()) {
    if (p.name === 'delivery-worker') continue;
    expect((await client(p.url)('/health')).status).toBe(200);
  }
}, 170_000);

it('a producer fails fast while Redis is away and works again, with no restart, once it is back', async () => {
  const redis = createRedis(stack.redis.url, { role: 'client' });
  const producer = createProducer(redis, `evdsf_probe_${randomBytes(3).toString('hex')}`);
  const id = () => randomBytes(16).toString('hex');
  try {
    await redis.ping();
    await stack.redis.stop();
    // The first use of this queue happens during the outage: it must fail, quickly, and not for good.
    const started = Date.now();
    await expect(producer.add('webhook', id(), { eventId: id() })).rejects.toThrow();
    await expect(redis.get('anything')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
    await stack.redis.start();
    for (let i = 0; i < 100 && redis.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 100));
    const jobId = id();
    await producer.add('webhook', jobId, { eventId: jobId });
    expect(await producer.queue('webhook').getJobState(jobId)).toBe('waiting');
  } finally {
    if (!stack.redis.running()) await stack.redis.start();
    await producer.close();
    redis.disconnect();
  }
}, 30_000);
