// Proves POST /api/v1/targets/:id/recover and GET /api/v1/recoveries/:id against api, ingest and the
// delivery worker as separate processes and a real HTTPS receiver: a recovery replays exactly the
// target's events created in [since, until) with the chosen statuses (default FAILED and EXPIRED),
// paging through more of them than one batch at the configured rate, with progress readable while it
// runs and exact matched/replayed/skipped counts at the end (payloads past retention skipped); each
// original becomes REPLAYED and gets exactly one new event (counted in Postgres by source_event_id),
// which is delivered, while events outside the range or of other statuses stay as they were and no
// usage record is written. A SIGKILL of the worker and a flush of Redis mid-run still end with each
// original replayed exactly once. Another organization's target and recovery ids answer 404, and
// malformed, mistyped, unknown-field or oversize bodies answer 400/413 {error, code}, never 500.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRedis } from '@evds/queue';
import { seedWorkspace, startStackWithReceiver } from '@evds/testkit';
import type { Receiver, Stack, TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { createWebhookTarget, eventCount, pollUntil, usageCount } from './helpers.ts';

/** A recovery as the API shows it (the fields these tests read). */
type Recovery = Record<'id' | 'state' | 'code', string> &
  Record<'matched' | 'replayed' | 'skipped' | 'created_at', number> & { finished_at: number | null };

let stack: Stack;
let receiver: Receiver;
/** While true the receiver fails everything but `{"ok":true}` bodies, so events end EXPIRED. */
let failing = true;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    // 50 a second: one batch of 50 a second, so a run of a few hundred events lasts a few seconds.
    env: {
      RECOVERY_RATE_PER_SECOND: '50',
      RETRY_DELAYS_MS: '20,20,20,20,20',
      INGEST_RATE_LIMIT: '100000',
      TARGET_MAX_IN_FLIGHT: '50',
      ORG_MAX_IN_FLIGHT: '100',
    },
    behaviour: (req) => ({ status: !failing || req.body.toString().includes('"ok":true') ? 200 : 500 }),
  }));
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const send = (ws: TestWorkspace, target: string, body: object) =>
  stack.ingest<{ id: string }>(`/t/${target}`, { key: ws.apiKey, body }).then((r) => {
    if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${r.text}`);
    return r.body.id;
  });
/** Sends `n` items, 10 at a time, and returns their ids. */
async function sendMany(ws: TestWorkspace, target: string, n: number, body: object = { n: 1 }) {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = Array.from({ length: Math.min(10, n - i) }, () => send(ws, target, body));
    ids.push(...(await Promise.all(batch)));
  }
  return ids;
}

const statusesOf = async (ids: string[]) =>
  (await stack.db.selectFrom('events').select('status').where('id', 'in', ids).execute()).map(
    (r) => r.status,
  );

const settle = (ids: string[], status: string) =>
  pollUntil(
    `${ids.length} events ${status}`,
    async () =>
      (await statusesOf(ids)).filter((s) => s === status).length === ids.length ? true : undefined,
    60_000,
  );

/** The next whole Unix second, once the clock has passed it: what is accepted from now on is at or after it. */
async function nextSecond(): Promise<number> {
  const s = Math.floor(Date.now() / 1000) + 1;
  await sleep(s * 1000 - Date.now() + 20);
  return s;
}

const recover = (ws: TestWorkspace, target: string, body: unknown, headers: Record<string, string> = {}) =>
  stack.api<Recovery>(`/api/v1/targets/${target}/recover`, { method: 'POST', key: ws.apiKey, body, headers });
const getRecovery = (ws: TestWorkspace, id: string) =>
  stack.api<Recovery>(`/api/v1/recoveries/${id}`, { key: ws.apiKey });
const completed = async (ws: TestWorkspace, id: string) => {
  const done = async () => (await getRecovery(ws, id)).body;
  return pollUntil(
    `recovery ${id} completed`,
    async () => ((await done()).state === 'completed' ? done() : undefined),
    60_000,
  );
};

/** The events a recovery made, read from Postgres. */
const copiesOf = async (recoveryId: string) =>
  (await stack.db.selectFrom('events').select('id').where('recovery_id', '=', recoveryId).execute()).map(
    (c) => c.id,
  );

/** For each of `sources` that has replays (of any kind), how many: all 1s, one per source, is "exactly once". */
const replayCounts = async (sources: string[]) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from events
      where source_event_id = any(${sources}::text[]) group by source_event_id`.execute(stack.db)
  ).rows.map((r) => r.n);
const once = (ids: string[]) => ids.map(() => 1);

/** `n` FAILED events: accepted while no worker runs, then found with their target disabled. */
async function failedEvents(ws: TestWorkspace, target: string, n: number): Promise<string[]> {
  await stack.processes.get('delivery-worker')?.kill('SIGTERM');
  const ids = await sendMany(ws, target, n);
  const patch = (enabled: boolean) =>
    stack.api(`/api/v1/targets/${target}`, { method: 'PATCH', key: ws.apiKey, body: { enabled } });
  expect((await patch(false)).status).toBe(200);
  await stack.start('delivery-worker');
  await settle(ids, 'FAILED');
  expect((await patch(true)).status).toBe(200);
  return ids;
}

describe('a recovery over a range', () => {
  it('pages through every matching event once, leaves the rest alone and writes no usage', async () => {
    failing = true;
    const ws = await seedWorkspace(stack.db);
    const target = (await createWebhookTarget(stack, ws, `${receiver.url}/range`)).id;
    const early = await sendMany(ws, target, 3);
    const since = await nextSecond();
    const inRange = await sendMany(ws, target, 250);
    const delivered = await sendMany(ws, target, 5, { ok: true });
    const until = await nextSecond();
    const late = await sendMany(ws, target, 3);
    await settle([...early, ...inRange, ...late], 'EXPIRED');
    await settle(delivered, 'DELIVERED');
    // Five payloads past retention, dropped as the retention job drops them.
    const gone = inRange.slice(100, 105);
    await stack.db.updateTable('events').set({ payload: null }).where('id', 'in', gone).execute();
    failing = false;
    const usage = await usageCount(stack, ws.orgId);

    const r = await recover(ws, target, { since, until });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ target_id: target, since, until, statuses: ['FAILED', 'EXPIRED'] });
    expect(r.body).toMatchObject({ state: 'running', matched: 250, replayed: 0, skipped: 0 });
    expect(r.body.finished_at).toBeNull();
    expect(r.body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(Math.abs(r.body.created_at - Date.now() / 1000)).toBeLessThan(5);

    // Part way: readable, running, counts between the ends.
    const midway = await pollUntil('progress part way', async () => {
      const p = await getRecovery(ws, r.body.id);
      return p.body.state === 'running' && p.body.replayed > 0 && p.body.replayed < 245 ? p.body : undefined;
    });
    expect(midway.finished_at).toBeNull();
    const done = await completed(ws, r.body.id);
    expect(done).toMatchObject({ matched: 250, replayed: 245, skipped: 5, state: 'completed' });
    expect(done.finished_at).toEqual(expect.any(Number));

    const replayed = inRange.filter((id) => !gone.includes(id));
    expect(await replayCounts(replayed)).toEqual(once(replayed));
    expect(await replayCounts([...early, ...late, ...delivered, ...gone])).toEqual([]);
    expect(new Set(await statusesOf(replayed))).toEqual(new Set(['REPLAYED']));
    expect(new Set(await statusesOf([...early, ...late, ...gone]))).toEqual(new Set(['EXPIRED']));
    const copies = await copiesOf(r.body.id);
    expect(copies).toHaveLength(245);
    await settle(copies, 'DELIVERED');
    expect(await usageCount(stack, ws.orgId)).toBe(usage);

    // The statuses asked for, and only those: the delivered five, over the same range.
    const again = await recover(ws, target, { since, until, statuses: ['DELIVERED'] });
    expect(again.body).toMatchObject({ matched: 5, statuses: ['DELIVERED'] });
    expect(await completed(ws, again.body.id)).toMatchObject({ replayed: 5, skipped: 0 });
    expect(await replayCounts(delivered)).toEqual(once(delivered));
    expect(await usageCount(stack, ws.orgId)).toBe(usage);
  }, 120_000);
});

/** Deletes every Redis key of this deployment (queues, schedulers), as FLUSHALL would for it alone. */
async function flushRedis(): Promise<void> {
  const redis = createRedis(stack.env.REDIS_URL ?? '', { role: 'client' });
  try {
    const keys = await redis.keys(`${stack.env.REDIS_PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

async function killWorker(): Promise<void> {
  await stack.processes.get('delivery-worker')?.kill('SIGKILL');
  await sleep(300);
  await stack.start('delivery-worker');
}

describe('an interrupted recovery', () => {
  it.each([
    ['a SIGKILL of the delivery worker', killWorker],
    ['a flush of every Redis key', flushRedis],
  ])(
    'resumes after %s and replays each original exactly once',
    async (_name, fault) => {
      const ws = await seedWorkspace(stack.db);
      const target = (await createWebhookTarget(stack, ws, `${receiver.url}/fault`)).id;
      failing = false;
      const originals = await failedEvents(ws, target, 150);
      const usage = await usageCount(stack, ws.orgId);
      const r = await recover(ws, target, { since: 0 });
      expect(r.body).toMatchObject({ state: 'running', matched: 150 });
      await pollUntil('the first batch', async () =>
        (await getRecovery(ws, r.body.id)).body.replayed > 0 ? true : undefined,
      );
      await fault();
      expect((await getRecovery(ws, r.body.id)).body.state).toBe('running');

      expect(await completed(ws, r.body.id)).toMatchObject({ matched: 150, replayed: 150, skipped: 0 });
      expect(await replayCounts(originals)).toEqual(once(originals));
      expect(new Set(await statusesOf(originals))).toEqual(new Set(['REPLAYED']));
      const copies = await copiesOf(r.body.id);
      expect(copies).toHaveLength(150);
      await settle(copies, 'DELIVERED');
      expect(await usageCount(stack, ws.orgId)).toBe(usage);
    },
    120_000,
  );
});

describe('tenancy and input', () => {
  let ws: TestWorkspace;
  let target: string;
  beforeAll(async () => {
    ws = await seedWorkspace(stack.db);
    target = (await createWebhookTarget(stack, ws, `${receiver.url}/input`)).id;
  });

  it("another organization's target and recovery ids answer 404, as unknown ids do, and change nothing", async () => {
    const mine = await recover(ws, target, { since: 0 });
    expect(mine.status).toBe(202);
    const other = await seedWorkspace(stack.db);
    const events = await eventCount(stack, ws.orgId);
    const count = async () => (await stack.db.selectFrom('recoveries').select('id').execute()).length;
    const recoveries = await count();
    const notFound = { error: expect.any(String), code: 'not_found' };
    for (const r of [
      await recover(other, target, { since: 0 }),
      await recover(other, '0'.repeat(32), { since: 0 }),
      await getRecovery(other, mine.body.id),
      await getRecovery(other, '0'.repeat(32)),
      await getRecovery(ws, 'not-an-id'),
    ])
      expect([r.status, r.body]).toEqual([404, notFound]);
    expect([await eventCount(stack, ws.orgId), await count()]).toEqual([events, recoveries]);
    expect((await getRecovery(ws, mine.body.id)).status).toBe(200);
  });

  const invalid = (prefix: string, body: unknown) => [400, 'validation_failed', prefix, body] as const;
  it.each([
    ['malformed JSON', 400, 'invalid_json', '', '{"since": 1,'],
    ['no body', ...invalid('since:', undefined)],
    ['since as a string', ...invalid('since:', { since: 'yesterday' })],
    ['since as an ISO date', ...invalid('since:', { since: '2026-11-24T00:00:00.000Z' })],
    ['fractional since', ...invalid('since:', { since: 1.5 })],
    ['negative until', ...invalid('until:', { since: 0, until: -1 })],
    ['until not after since', ...invalid('until:', { since: 100, until: 100 })],
    ['since in the future', ...invalid('since:', { since: 4_000_000_000 })],
    ['statuses not an array', ...invalid('statuses:', { since: 0, statuses: 'FAILED' })],
    ['an in-flight status', ...invalid('statuses.0:', { since: 0, statuses: ['QUEUED'] })],
    ['no statuses', ...invalid('statuses:', { since: 0, statuses: [] })],
    ['a repeated status', ...invalid('statuses:', { since: 0, statuses: ['FAILED', 'FAILED'] })],
    ['an unknown field', ...invalid('body:', { since: 0, limit: 5 })],
    ['a body over the limit', 413, 'payload_too_large', '', JSON.stringify({ pad: 'x'.repeat(1_100_000) })],
  ] as const)('%s answers %s %s', async (_name, status, code, prefix, body) => {
    const before = await stack.db.selectFrom('recoveries').select('id').execute();
    const r = await recover(ws, target, body);
    expect([r.status, r.body]).toEqual([status, { error: expect.stringMatching(`^${prefix}`), code }]);
    expect(await stack.db.selectFrom('recoveries').select('id').execute()).toEqual(before);
  });

  it('a body that is not JSON is 415; a mailbox is 400; a disabled or deleted target is 409', async () => {
    const answer = async (id: string, body: unknown, headers?: Record<string, string>) =>
      recover(ws, id, body, headers).then((r) => [r.status, r.body.code]);
    expect(await answer(target, 'since=0', { 'content-type': 'text/plain' })).toEqual([
      415,
      'unsupported_media_type',
    ]);
    const box = { kind: 'mailbox', name: 'box' };
    const mailbox = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: box,
    });
    expect(await answer(mailbox.body.target.id, { since: 0 })).toEqual([400, 'wrong_target_kind']);
    const other = (await createWebhookTarget(stack, ws, `${receiver.url}/input2`)).id;
    const path = `/api/v1/targets/${other}`;
    await stack.api(path, { method: 'PATCH', key: ws.apiKey, body: { enabled: false } });
    expect(await answer(other, { since: 0 })).toEqual([409, 'target_disabled']);
    await stack.api(path, { method: 'DELETE', key: ws.apiKey });
    expect(await answer(other, { since: 0 })).toEqual([409, 'conflict']);
  });
});
