// Proves auto-disable against the real database with a fake clock: a target failing every attempt for
// exactly AUTO_DISABLE_AFTER_SECONDS is disabled (a millisecond less is not) with a reason naming when
// its run began, and its pending (QUEUED, RETRYING) events end FAILED with that reason while settled
// ones keep their state; deleted targets, targets disabled by hand, healthy targets and other targets'
// events are untouched; each call is bounded; re-enabling clears the reason and the run, disabling by
// hand sets no reason, and the gauge's count follows. On real Redis, the maintenance 'retention' task
// runs auto-disable only when AUTO_DISABLE_AFTER_SECONDS is above 0, and then bumps the cache
// generation so ingest refuses the target at once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  autoDisableFailingTargets,
  countAutoDisabledTargets,
  createTarget,
  updateTarget,
  type Db,
} from '@evds/db';
import { createMaintenance } from '@evds/delivery';
import { newId, type EventStatus } from '@evds/domain';
import { bumpCacheGeneration, cacheGenerationKey, createProducer, createRedis } from '@evds/queue';
import { createLogger } from '@evds/runtime';
import {
  createTestDatabase,
  seedWorkspace,
  testRedisPrefix,
  testRedisUrl,
  type TestDatabase,
  type TestWorkspace,
} from '@evds/testkit';

const AFTER = 5 * 24 * 3600;
const t0 = new Date('2026-11-19T10:00:00.000Z');
const boundary = new Date(t0.getTime() + AFTER * 1000);

let database: TestDatabase;
let db: Db;
let ws: TestWorkspace;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  ws = await seedWorkspace(db);
});
afterAll(() => database.drop());

async function newTarget(failingSince: Date | null): Promise<string> {
  const t = await createTarget(db, {
    id: newId(),
    org_id: ws.orgId,
    kind: 'webhook',
    name: 'hook',
    url: 'https://93.184.215.14/hook',
  });
  await db
    .updateTable('targets')
    .set({ failing_since: failingSince, consecutive_failures: failingSince ? 40 : 0 })
    .where('id', '=', t.id)
    .execute();
  return t.id;
}

async function newEvent(targetId: string, status: EventStatus, payload?: { createdAt: Date }) {
  const id = newId();
  await db
    .insertInto('events')
    .values({
      id,
      org_id: ws.orgId,
      target_id: targetId,
      target_kind: 'webhook',
      status,
      payload: Buffer.from('{}'),
      payload_size: 2,
      next_attempt_at: status === 'QUEUED' || status === 'RETRYING' ? new Date() : null,
      ...(payload ? { created_at: payload.createdAt } : {}),
    })
    .execute();
  return id;
}

const targetRow = (id: string) =>
  db
    .selectFrom('targets')
    .select(['enabled', 'disabled_reason', 'failing_since', 'consecutive_failures'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const eventRow = (id: string) =>
  db
    .selectFrom('events')
    .select(['status', 'final_reason', 'next_attempt_at', 'payload'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
/** Everything else out of the way: only the targets a test makes are due. */
const settleOthers = () => db.updateTable('targets').set({ failing_since: null }).execute();

describe('autoDisableFailingTargets', () => {
  it('disables at exactly the limit, not a millisecond before, and fails its pending events', async () => {
    await settleOthers();
    const due = await newTarget(t0);
    const almost = await newTarget(new Date(t0.getTime() + 1));
    const deleted = await newTarget(t0);
    await db.updateTable('targets').set({ deleted_at: t0 }).where('id', '=', deleted).execute();
    const byHand = await newTarget(t0);
    await updateTarget(db, ws.orgId, byHand, { enabled: false });
    const healthy = await newTarget(null);
    const events = {
      queued: await newEvent(due, 'QUEUED'),
      retrying: await newEvent(due, 'RETRYING'),
      delivered: await newEvent(due, 'DELIVERED'),
      expired: await newEvent(due, 'EXPIRED'),
      almost: await newEvent(almost, 'RETRYING'),
      deleted: await newEvent(deleted, 'QUEUED'),
      byHand: await newEvent(byHand, 'QUEUED'),
      healthy: await newEvent(healthy, 'QUEUED'),
    };
    const reason = 'auto-disabled: every attempt failed since 2026-11-19T10:00:00.000Z';

    expect(await autoDisableFailingTargets(db, boundary, AFTER)).toEqual([
      { orgId: ws.orgId, targetId: due, reason, failedEvents: 2 },
    ]);
    expect(await targetRow(due)).toMatchObject({ enabled: false, disabled_reason: reason });
    for (const id of [events.queued, events.retrying])
      expect(await eventRow(id)).toMatchObject({
        status: 'FAILED',
        final_reason: reason,
        next_attempt_at: null,
      });
    expect(await eventRow(events.delivered)).toMatchObject({ status: 'DELIVERED', final_reason: null });
    expect(await eventRow(events.expired)).toMatchObject({ status: 'EXPIRED' });
    expect(await targetRow(almost)).toMatchObject({ enabled: true, disabled_reason: null });
    expect(await eventRow(events.almost)).toMatchObject({ status: 'RETRYING' });

    // A millisecond later the other one's time is up too; nothing else ever is.
    const later = new Date(boundary.getTime() + 1);
    expect((await autoDisableFailingTargets(db, later, AFTER)).map((d) => d.targetId)).toEqual([almost]);
    expect(await eventRow(events.almost)).toMatchObject({ status: 'FAILED' });
    expect(await autoDisableFailingTargets(db, new Date(later.getTime() + 86_400_000), AFTER)).toEqual([]);
    expect(await targetRow(deleted)).toMatchObject({ enabled: true, disabled_reason: null });
    expect(await targetRow(byHand)).toMatchObject({ enabled: false, disabled_reason: null });
    expect(await targetRow(healthy)).toMatchObject({ enabled: true });
    for (const id of [events.deleted, events.byHand, events.healthy])
      expect(await eventRow(id)).toMatchObject({ status: 'QUEUED' });
  });

  it('does nothing with 0 seconds, and disables at most `limit` targets per call', async () => {
    await settleOthers();
    const [a, b] = [await newTarget(t0), await newTarget(t0)];
    expect(await autoDisableFailingTargets(db, new Date(), 0)).toEqual([]);
    expect(await autoDisableFailingTargets(db, boundary, AFTER, { limit: 1 })).toHaveLength(1);
    expect(await autoDisableFailingTargets(db, boundary, AFTER, { limit: 1 })).toHaveLength(1);
    for (const id of [a, b]) expect((await targetRow(id)).enabled).toBe(false);
  });

  it('is cleared by re-enabling; disabling by hand sets no reason; the gauge counts what is left', async () => {
    await settleOthers();
    const before = await countAutoDisabledTargets(db);
    const [a, b] = [await newTarget(t0), await newTarget(t0)];
    await autoDisableFailingTargets(db, boundary, AFTER);
    expect(await countAutoDisabledTargets(db)).toBe(before + 2);

    await updateTarget(db, ws.orgId, a, { enabled: true });
    expect(await targetRow(a)).toEqual({
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      consecutive_failures: 0,
    });
    expect(await countAutoDisabledTargets(db)).toBe(before + 1);
    // Not failing any more: the next run leaves it enabled.
    expect(await autoDisableFailingTargets(db, boundary, AFTER)).toEqual([]);

    await updateTarget(db, ws.orgId, a, { enabled: false });
    expect(await targetRow(a)).toMatchObject({ enabled: false, disabled_reason: null });
    // A deleted auto-disabled target is not counted.
    await db.updateTable('targets').set({ deleted_at: new Date() }).where('id', '=', b).execute();
    expect(await countAutoDisabledTargets(db)).toBe(before);
  });
});

describe("the maintenance 'retention' task", () => {
  const redisUrl = testRedisUrl();
  const prefix = testRedisPrefix();
  const client = createRedis(redisUrl, { role: 'client' });
  const producer = createProducer(client, prefix);
  afterAll(async () => {
    await producer.close();
    client.disconnect();
  });

  const start = async (autoDisableAfterSeconds: number, bumps: string[]) => {
    const redis = createRedis(redisUrl, { role: 'worker' });
    const m = createMaintenance({
      db,
      producer,
      redis,
      prefix,
      logger: createLogger({ level: 'silent', name: 'test' }),
      sweepIntervalMs: 60_000,
      sweepGraceMs: 60_000,
      maintenanceIntervalMs: 100,
      payloadRetentionSeconds: 3600,
      autoDisableAfterSeconds,
      onTargetsDisabled: async () => {
        bumps.push('bump');
        await bumpCacheGeneration(client, prefix);
      },
    });
    await m.start();
    return async () => {
      await m.close();
      redis.disconnect();
    };
  };

  /** Waits for the task to drop an old payload: a whole run started after this call has finished. */
  async function oneRun(targetId: string) {
    const id = await newEvent(targetId, 'DELIVERED', { createdAt: new Date(Date.now() - 7_200_000) });
    const deadline = Date.now() + 10_000;
    while ((await eventRow(id)).payload !== null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect((await eventRow(id)).payload).toBeNull();
  }

  it('auto-disables only when AUTO_DISABLE_AFTER_SECONDS is above 0, then bumps the cache generation', async () => {
    await settleOthers();
    const failing = await newTarget(new Date(Date.now() - 2 * AFTER * 1000));
    const pending = await newEvent(failing, 'RETRYING');
    const bumps: string[] = [];

    const off = await start(0, bumps);
    try {
      await oneRun(failing);
      await oneRun(failing);
    } finally {
      await off();
    }
    expect(await targetRow(failing)).toMatchObject({ enabled: true, disabled_reason: null });
    expect(bumps).toEqual([]);

    const generation = Number((await client.get(cacheGenerationKey(prefix))) ?? 0);
    const on = await start(AFTER, bumps);
    try {
      await oneRun(failing);
      await oneRun(failing);
    } finally {
      await on();
    }
    expect(await targetRow(failing)).toMatchObject({
      enabled: false,
      disabled_reason: expect.stringMatching(/^auto-disabled: every attempt failed since /),
    });
    expect(await eventRow(pending)).toMatchObject({ status: 'FAILED' });
    expect(bumps).toEqual(['bump']);
    expect(Number(await client.get(cacheGenerationKey(prefix)))).toBe(generation + 1);
  });
});
