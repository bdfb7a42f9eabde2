// Against the test run's real Redis: the admission and release scripts keep per-target and
// per-organization caps across callers, hand freed slots to parked jobs oldest first (reserved for
// them), lapse the slots of a caller that never releases, and move a circuit through open, half-open
// (one probe) and closed with a doubling cooldown.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { readCircuits } from './circuit.ts';
import { createFlow, type FlowLimits } from './gate.ts';

let redis: Redis;
const prefix = `evdst_${randomBytes(5).toString('hex')}`;
beforeAll(() => {
  const url = process.env.EVDS_TEST_REDIS;
  if (!url) throw new Error('EVDS_TEST_REDIS is not set: run tests through jest');
  redis = new Redis(url);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const limits: FlowLimits = {
  targetCap: 2,
  orgCap: 3,
  failureThreshold: 3,
  cooldownMs: 150,
  cooldownMaxMs: 500,
  leaseMs: 10_000,
};
const id = () => randomBytes(8).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('caps', () => {
  it('holds a target past its cap and hands the freed slot to the oldest parked job', async () => {
    const flow = createFlow(redis, prefix, limits);
    const t = { orgId: id(), targetId: id() };
    expect(await flow.acquire('webhook', t, 'j1')).toEqual({ go: true, probe: false });
    expect(await flow.acquire('webhook', t, 'j2')).toEqual({ go: true, probe: false });
    const held = await flow.acquire('webhook', t, 'j3');
    expect(held).toMatchObject({ go: false, reason: 'target_cap' });
    expect(await flow.acquire('webhook', t, 'j4')).toMatchObject({ go: false, reason: 'target_cap' });
    // The first parked wakes by itself after the safety delay; the one behind it a little later.
    const r = await flow.release('webhook', t, 'j1', 'ok');
    expect(r.handed).toEqual([{ kind: 'webhook', targetId: t.targetId, jobId: 'j3' }]);
    // A newcomer cannot take the slot handed to j3, but j3 can, although the cap is reached again.
    expect(await flow.acquire('webhook', t, 'j5')).toMatchObject({ go: false, reason: 'target_cap' });
    expect(await flow.acquire('webhook', t, 'j3')).toEqual({ go: true, probe: false });
  });

  it('holds an organization past its cap and hands room freed on one target to another', async () => {
    const flow = createFlow(redis, prefix, limits);
    const orgId = id();
    const a = { orgId, targetId: id() };
    const b = { orgId, targetId: id() };
    expect((await flow.acquire('webhook', a, 'a1')).go).toBe(true);
    expect((await flow.acquire('webhook', a, 'a2')).go).toBe(true);
    expect((await flow.acquire('a2a', b, 'b1')).go).toBe(true);
    expect(await flow.acquire('a2a', b, 'b2')).toMatchObject({ go: false, reason: 'org_cap' });
    // a's own line is empty, so the room goes to b's parked job, with b's queue kind.
    const r = await flow.release('webhook', a, 'a1', 'ok');
    expect(r.handed).toEqual([{ kind: 'a2a', targetId: b.targetId, jobId: 'b2' }]);
    expect((await flow.acquire('a2a', b, 'b2')).go).toBe(true);
    // Another organization is not affected by this one's cap.
    expect((await flow.acquire('webhook', { orgId: id(), targetId: id() }, 'x1')).go).toBe(true);
  });

  it('counts concurrent calls of several organizations and targets as if made one by one', async () => {
    const flow = createFlow(redis, prefix, limits);
    const [o1, o2] = [id(), id()];
    const targets = [
      { orgId: o1, targetId: id() },
      { orgId: o1, targetId: id() },
      { orgId: o2, targetId: id() },
    ];
    // Four calls per target at once, the targets interleaved: they share script calls, one per
    // organization, and each call sends a target's keys once, however many of its deliveries it has.
    const calls = [1, 2, 3, 4].flatMap((n) => targets.map((t, ti) => ({ t, jobId: `j${ti}-${n}` })));
    const scripted = redis as unknown as Record<'evdsFlowAcquire', (...args: unknown[]) => unknown>;
    const spy = jest.spyOn(scripted, 'evdsFlowAcquire');
    const answers = await Promise.all(calls.map((c) => flow.acquire('webhook', c.t, c.jobId)));
    expect(spy.mock.calls.map((args) => args[0]).sort()).toEqual([2 + 3 * 1, 2 + 3 * 2]);
    spy.mockRestore();
    const goes = (ti: number) =>
      calls.filter((c, i) => c.t === targets[ti] && answers[i]!.go).map((c) => c.jobId);
    // Each target's cap is 2 and each organization's 3: o1's two targets share its 3 slots.
    expect(goes(0).length + goes(1).length).toBe(3);
    expect(goes(0).length).toBeLessThanOrEqual(2);
    expect(goes(1).length).toBeLessThanOrEqual(2);
    expect(goes(2)).toHaveLength(2);
    expect(answers.filter((a) => !a.go)).toHaveLength(12 - 5);
    // Releasing every slot at once hands each freed slot to a parked job of the same organization.
    const going = calls.filter((_, i) => answers[i]!.go);
    const released = await Promise.all(going.map((c) => flow.release('webhook', c.t, c.jobId, 'ok')));
    const handed = released.flatMap((r) => r.handed);
    expect(handed).toHaveLength(5);
    const parked = new Set(calls.filter((_, i) => !answers[i]!.go).map((c) => c.jobId));
    for (const h of handed) expect(parked.has(h.jobId)).toBe(true);
    expect(handed.filter((h) => h.targetId === targets[2]!.targetId)).toHaveLength(2);
  });

  it('lapses the slot of a holder that never releases it', async () => {
    const flow = createFlow(redis, prefix, { ...limits, leaseMs: 100 });
    const t = { orgId: id(), targetId: id() };
    await flow.acquire('webhook', t, 'j1');
    await flow.acquire('webhook', t, 'j2');
    expect((await flow.acquire('webhook', t, 'j3')).go).toBe(false);
    await sleep(150);
    expect((await flow.acquire('webhook', t, 'j3')).go).toBe(true);
  });
});

describe('circuit', () => {
  it('opens after consecutive failures, lets one probe through per cooldown, and closes on success', async () => {
    const flow = createFlow(redis, prefix, { ...limits, targetCap: 10, orgCap: 10 });
    const t = { orgId: id(), targetId: id() };
    for (const j of ['f1', 'f2']) {
      await flow.acquire('webhook', t, j);
      expect((await flow.release('webhook', t, j, 'fail')).opened).toBe(false);
    }
    // A release with no attempt made does not count.
    await flow.acquire('webhook', t, 'n1');
    await flow.release('webhook', t, 'n1', 'none');
    expect((await readCircuits(redis, prefix, [t])).get(t.targetId)?.state).toBe('closed');
    await flow.acquire('webhook', t, 'f3');
    expect((await flow.release('webhook', t, 'f3', 'fail')).opened).toBe(true);
    const open = (await readCircuits(redis, prefix, [t])).get(t.targetId);
    expect(open).toMatchObject({ state: 'open', consecutiveFailures: 3 });
    expect(open?.nextProbeAt).toBeInstanceOf(Date);

    const held = await flow.acquire('webhook', t, 'p1');
    expect(held).toMatchObject({ go: false, reason: 'circuit_open' });
    if (held.go) throw new Error('unreachable');
    expect(held.delayMs).toBeGreaterThan(0);
    expect(held.delayMs).toBeLessThanOrEqual(200);
    await flow.acquire('webhook', t, 'p2');

    // After the cooldown one delivery is the probe; the others wait for its outcome.
    await sleep(170);
    expect(await flow.acquire('webhook', t, 'p1')).toEqual({ go: true, probe: true });
    expect(await flow.acquire('webhook', t, 'p2')).toMatchObject({ go: false, reason: 'circuit_open' });
    expect((await readCircuits(redis, prefix, [t])).get(t.targetId)?.state).toBe('half_open');

    // A failed probe opens it again for twice as long.
    await flow.release('webhook', t, 'p1', 'fail');
    await sleep(170);
    expect(await flow.acquire('webhook', t, 'p1')).toMatchObject({ go: false, reason: 'circuit_open' });
    await sleep(200);
    expect(await flow.acquire('webhook', t, 'p1')).toEqual({ go: true, probe: true });

    // A successful probe closes it and hands the parked deliveries their slots.
    const closed = await flow.release('webhook', t, 'p1', 'ok');
    expect(closed.closed).toBe(true);
    expect(closed.handed.map((h) => h.jobId)).toEqual(['p2']);
    const view = (await readCircuits(redis, prefix, [t])).get(t.targetId);
    expect(view).toMatchObject({
      state: 'closed',
      consecutiveFailures: 0,
      openedAt: null,
      nextProbeAt: null,
    });
    expect(view?.lastSuccessAt).toBeInstanceOf(Date);
    expect(view?.lastFailureAt).toBeInstanceOf(Date);
  });

  it('lets another delivery probe when the probe holder died (its lease lapsed)', async () => {
    const flow = createFlow(redis, prefix, { ...limits, failureThreshold: 1, leaseMs: 100 });
    const t = { orgId: id(), targetId: id() };
    await flow.acquire('webhook', t, 'f1');
    await flow.release('webhook', t, 'f1', 'fail');
    await sleep(170);
    expect((await flow.acquire('webhook', t, 'dies')).go).toBe(true);
    expect((await flow.acquire('webhook', t, 'next')).go).toBe(false);
    await sleep(120);
    expect(await flow.acquire('webhook', t, 'next')).toEqual({ go: true, probe: true });
  });
});
