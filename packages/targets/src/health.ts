// A target's health as its answers show it: the durable part from its row in Postgres (failing since
// when, last success and failure, failures in a row, written by the delivery worker) and its circuit
// from the flow control in Redis. Redis may be away: the answer then still comes, with `circuit: null`
// ("not known now") rather than a guess, since a closed circuit would claim deliveries are flowing.
import type { PublicTarget } from '@evds/db';
import { unixOrNull } from '@evds/domain';
import { CLOSED_CIRCUIT, readCircuits, resetCircuit, type CircuitView } from '@evds/flow';
import type { Redis } from '@evds/queue';
import { z } from 'zod';

const seconds = z.number().int().nullable();

export const healthSchema = z
  .object({
    status: z
      .enum(['healthy', 'failing', 'unknown'])
      .describe(
        'failing: every attempt since failing_since failed; unknown: no attempt yet (or since re-enabled)',
      ),
    failing_since: seconds.describe('The first failed attempt after the last success (Unix seconds)'),
    last_success_at: seconds.describe('Last successful attempt, to within a minute (Unix seconds)'),
    last_failure_at: seconds.describe('Last failed attempt (Unix seconds)'),
    consecutive_failures: z.number().int().describe('Failed attempts since the last success'),
    circuit: z
      .enum(['closed', 'open', 'half_open'])
      .nullable()
      .describe(
        'open: deliveries wait for the cooldown; half_open: one probe is under way; null: not known now',
      ),
    next_probe_at: seconds.describe('When an open circuit lets its next probe through (Unix seconds)'),
  })
  .describe("The target's delivery health");
export type HealthView = z.infer<typeof healthSchema>;

export const disabledReasonSchema = z
  .string()
  .nullable()
  .describe(
    'Why the service disabled the target itself (auto-disable); null otherwise, also when disabled by hand',
  );

/** The circuit of a target created a moment ago: nothing was ever attempted, so none is stored. */
export const NEW_TARGET_CIRCUIT: CircuitView = CLOSED_CIRCUIT;

export function healthView(t: PublicTarget, circuit: CircuitView | null): HealthView {
  return {
    status: t.failing_since ? 'failing' : t.last_success_at ? 'healthy' : 'unknown',
    failing_since: unixOrNull(t.failing_since),
    last_success_at: unixOrNull(t.last_success_at),
    last_failure_at: unixOrNull(t.last_failure_at),
    consecutive_failures: t.consecutive_failures,
    circuit: circuit?.state ?? null,
    next_probe_at: unixOrNull(circuit?.nextProbeAt ?? null),
  };
}

/** Where the circuits are: the api's Redis client and the deployment's key prefix. */
export interface CircuitStore {
  redis: Redis;
  prefix: string;
}

/**
 * The circuits of these targets, in one round trip; null when Redis cannot answer now (the request
 * goes on without them). The api's client fails fast while Redis is away (packages/queue).
 */
export async function readTargetCircuits(
  store: CircuitStore,
  targets: Pick<PublicTarget, 'id' | 'org_id'>[],
): Promise<Map<string, CircuitView> | null> {
  try {
    return await readCircuits(
      store.redis,
      store.prefix,
      targets.map((t) => ({ orgId: t.org_id, targetId: t.id })),
    );
  } catch {
    return null;
  }
}

/** Renders targets with their circuits, read in one round trip for all of them. */
export async function withCircuits<V>(
  store: CircuitStore,
  targets: PublicTarget[],
  view: (t: PublicTarget, circuit: CircuitView | null) => V,
): Promise<V[]> {
  const circuits = await readTargetCircuits(store, targets);
  return targets.map((t) => view(t, circuits?.get(t.id) ?? null));
}

/**
 * Before a disabled target is enabled again: its circuit starts closed. Done before the row changes, so
 * when Redis is away the request fails (503) with the target still disabled and can simply be repeated.
 */
export async function resetCircuitBeforeEnabling(
  store: CircuitStore,
  current: Pick<PublicTarget, 'id' | 'org_id' | 'enabled'>,
  enabled: boolean | undefined,
): Promise<void> {
  if (enabled === true && !current.enabled)
    await resetCircuit(store.redis, store.prefix, { orgId: current.org_id, targetId: current.id });
}
