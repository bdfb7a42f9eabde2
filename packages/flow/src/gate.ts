import type { Redis } from '@evds/queue';
import { createBatcher, runGrouped } from '@evds/runtime';
import { flowKeys, openCircuitsKey, type TargetRef } from './keys.ts';
import { ACQUIRE, RELEASE } from './scripts.ts';

export interface FlowLimits {
  /** Attempts in flight per target, across every worker. */
  targetCap: number;
  /** Attempts in flight per organization, across every worker. */
  orgCap: number;
  /** Consecutive failed attempts that open a circuit. */
  failureThreshold: number;
  cooldownMs: number;
  cooldownMaxMs: number;
  /** How long a slot is held by an attempt whose worker never releases it (longer than any attempt). */
  leaseMs: number;
}

export type HoldReason = 'target_cap' | 'org_cap' | 'circuit_open';

export type Admission =
  | { go: true; probe: boolean }
  /** Held: wait `delayMs` at most (a release usually wakes it sooner); it is not an attempt. */
  | { go: false; reason: HoldReason; delayMs: number };

/** A parked delivery that a release handed a slot to: its job is to be promoted now. */
export interface Handed {
  kind: string;
  targetId: string;
  jobId: string;
}

export interface Flow {
  acquire(kind: string, t: TargetRef, jobId: string): Promise<Admission>;
  release(
    kind: string,
    t: TargetRef,
    jobId: string,
    /** 'none': no attempt was made (the slot is freed, the circuit not moved). */
    outcome: 'ok' | 'fail' | 'none',
  ): Promise<{ handed: Handed[]; opened: boolean; closed: boolean }>;
}

/** A slot handed to a parked job is kept this long for it to start (it goes to the queue's tail). */
const RESERVATION_MS = 60_000;
/** A held job wakes by itself after this, plus a little per job parked before it: the safety net. */
const HELD_WAKE_MS = 30_000;
const HELD_WAKE_PER_RANK_MS = 100;
const HELD_WAKE_MAX_MS = 10 * 60_000;

type Scripted = Redis & {
  evdsFlowAcquire(...args: (string | number)[]): Promise<[string, string | number, number?, number?][]>;
  evdsFlowRelease(...args: (string | number)[]): Promise<(string | number)[][]>;
};

interface Call {
  kind: string;
  t: TargetRef;
  jobId: string;
}
type ReleaseCall = Call & { outcome: 'ok' | 'fail' | 'none' };
type Released = Awaited<ReturnType<Flow['release']>>;

/** One script call per organization among `calls` (its keys share one hash slot). */
const perOrganization = <C extends Call, R>(calls: C[], run: (group: C[]) => Promise<R[]>) =>
  runGrouped(calls, (c) => c.t.orgId, run);

/**
 * Delivery flow control over Redis: caps on attempts in flight per target and per organization, and a
 * circuit breaker per target. A delivery that may not start now is held (its job waits delayed, holding
 * no worker slot) and is woken by the release that frees room for it, oldest first. The acquires (and
 * the releases) a worker makes while one call is under way go together in the next, one per organization.
 */
export function createFlow(redis: Redis, prefix: string, limits: FlowLimits): Flow {
  const r = redis as Scripted;
  if (!('evdsFlowAcquire' in r)) {
    redis.defineCommand('evdsFlowAcquire', { lua: ACQUIRE });
    redis.defineCommand('evdsFlowRelease', { lua: RELEASE });
  }
  // The organization's two keys, then each target's three once (the scripts' KEYS layout); `slots`
  // gives each delivery its target's place among them.
  const keysOf = (group: Call[]) => {
    const org = flowKeys(prefix, group[0]!.t);
    const keys = [org.orgInflight, org.orgParked];
    const slotOf = new Map<string, number>();
    const slots = group.map(({ t }) => {
      let slot = slotOf.get(t.targetId);
      if (slot === undefined) {
        slot = slotOf.size;
        slotOf.set(t.targetId, slot);
        const k = flowKeys(prefix, t);
        keys.push(k.inflight, k.parked, k.circuit);
      }
      return slot;
    });
    return { keys, slots, orgBase: org.orgBase };
  };
  const batching = { maxBatch: 100, maxInFlight: 1 };

  const acquires = createBatcher<Call, Admission>(
    (calls) =>
      perOrganization(calls, async (group) => {
        const { keys, slots } = keysOf(group);
        const args = group.flatMap((c, i) => [c.jobId, `${c.kind}/${c.t.targetId}`, slots[i]!]);
        const answers = await r.evdsFlowAcquire(
          keys.length,
          ...keys,
          limits.targetCap,
          limits.orgCap,
          limits.leaseMs,
          ...args,
        );
        return answers.map(([verdict, a, rank = 0, probeAt = 0]): Admission => {
          if (verdict === 'go') return { go: true, probe: a === 1 };
          // Later parked jobs wake later, so a long line does not wake all at once; behind an open
          // circuit the first wakes at the probe time (the first to arrive then is the probe).
          const untilProbe = probeAt > 0 ? Math.max(0, probeAt - Date.now()) : HELD_WAKE_MS;
          const delayMs = Math.min(untilProbe + rank * HELD_WAKE_PER_RANK_MS, HELD_WAKE_MAX_MS);
          return { go: false, reason: a as HoldReason, delayMs };
        });
      }),
    batching,
  );

  const releases = createBatcher<ReleaseCall, Released>(
    (calls) =>
      perOrganization(calls, async (group) => {
        const { keys, slots, orgBase } = keysOf(group);
        const args = group.flatMap((c, i) => [c.jobId, c.outcome, `${c.kind}/${c.t.targetId}`, slots[i]!]);
        const answers = await r.evdsFlowRelease(
          keys.length,
          ...keys,
          limits.targetCap,
          limits.orgCap,
          limits.failureThreshold,
          limits.cooldownMs,
          limits.cooldownMaxMs,
          RESERVATION_MS,
          orgBase,
          ...args,
        );
        return answers.map(([opened, closed, ...rest]) => {
          const handed: Handed[] = [];
          for (let i = 0; i + 2 < rest.length; i += 3)
            handed.push({ kind: String(rest[i]), targetId: String(rest[i + 1]), jobId: String(rest[i + 2]) });
          return { handed, opened: opened === 1, closed: closed === 1 };
        });
      }),
    batching,
  );

  return {
    acquire: (kind, t, jobId) => acquires.submit({ kind, t, jobId }),
    async release(kind, t, jobId, outcome) {
      const released = await releases.submit({ kind, t, jobId, outcome });
      if (released.opened) await redis.zadd(openCircuitsKey(prefix), Date.now(), t.targetId);
      if (released.closed) await redis.zrem(openCircuitsKey(prefix), t.targetId);
      return released;
    },
  };
}

/** The limits from a worker's configuration; a slot's lease outlives the longest attempt by 30 s. */
export const flowLimits = (cfg: {
  TARGET_MAX_IN_FLIGHT: number;
  ORG_MAX_IN_FLIGHT: number;
  CIRCUIT_FAILURE_THRESHOLD: number;
  CIRCUIT_COOLDOWN_MS: number;
  CIRCUIT_COOLDOWN_MAX_MS: number;
  DELIVERY_TIMEOUT_MS: number;
}): FlowLimits => ({
  targetCap: cfg.TARGET_MAX_IN_FLIGHT,
  orgCap: cfg.ORG_MAX_IN_FLIGHT,
  failureThreshold: cfg.CIRCUIT_FAILURE_THRESHOLD,
  cooldownMs: cfg.CIRCUIT_COOLDOWN_MS,
  cooldownMaxMs: cfg.CIRCUIT_COOLDOWN_MAX_MS,
  leaseMs: cfg.DELIVERY_TIMEOUT_MS + 30_000,
});
