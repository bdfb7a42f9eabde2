import type { Redis } from '@evds/queue';
import { flowKeys, openCircuitsKey, type TargetRef } from './keys.ts';

export type CircuitState = 'closed' | 'open' | 'half_open';

/** A target's circuit as the flow control holds it (Redis: a flush closes every circuit). */
export interface CircuitView {
  state: CircuitState;
  consecutiveFailures: number;
  openedAt: Date | null;
  /** When an open circuit lets its next probe through. */
  nextProbeAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
}

const FIELDS = ['state', 'failures', 'opened_at', 'probe_at', 'last_success', 'last_failure'] as const;

const dateOf = (ms: string | null | undefined) => (ms ? new Date(Number(ms)) : null);

function viewOf(values: (string | null)[]): CircuitView {
  const [state, failures, openedAt, probeAt, lastSuccess, lastFailure] = values;
  const s: CircuitState = state === 'open' || state === 'half_open' ? state : 'closed';
  return {
    state: s,
    consecutiveFailures: Number(failures ?? 0) || 0,
    openedAt: s === 'closed' ? null : dateOf(openedAt),
    nextProbeAt: s === 'open' ? dateOf(probeAt) : null,
    lastSuccessAt: dateOf(lastSuccess),
    lastFailureAt: dateOf(lastFailure),
  };
}

/** The circuit of a target with nothing stored: closed, no failures, no times (never attempted, or flushed). */
export const CLOSED_CIRCUIT: CircuitView = viewOf([]);

/**
 * The circuits of these targets; a target never attempted reads closed with no times. The reads go
 * out together, each on its own: not as one pipeline, which a Redis Cluster refuses when the targets'
 * organizations hash to slots on different nodes.
 */
export async function readCircuits(
  redis: Redis,
  prefix: string,
  targets: TargetRef[],
): Promise<Map<string, CircuitView>> {
  const values = await Promise.all(targets.map((t) => redis.hmget(flowKeys(prefix, t).circuit, ...FIELDS)));
  return new Map(targets.map((t, i) => [t.targetId, viewOf(values[i] ?? [])]));
}

/** How many targets have an open or half-open circuit, deployment-wide. */
export const countOpenCircuits = (redis: Redis, prefix: string): Promise<number> =>
  redis.zcard(openCircuitsKey(prefix));

/** Forgets a target's circuit (closed, no failures): re-enabling a target starts it afresh. */
export async function resetCircuit(redis: Redis, prefix: string, t: TargetRef): Promise<void> {
  await redis.del(flowKeys(prefix, t).circuit);
  await redis.zrem(openCircuitsKey(prefix), t.targetId);
}
