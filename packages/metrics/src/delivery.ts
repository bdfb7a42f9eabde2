import { Counter, Histogram, type Registry } from 'prom-client';

export const attemptOutcomes = ['DELIVERED', 'RETRYING', 'EXPIRED', 'FAILED'] as const;
export type AttemptOutcomeLabel = (typeof attemptOutcomes)[number];
/** The delivery queues: webhook and a2a (the `kind` label). */
export const deliveryKinds = ['webhook', 'a2a'] as const;

export interface DeliveryMetrics {
  /**
   * One attempt made and logged, with the state it moved its item to. `moved` is false when a
   * duplicate job had already moved the item: the attempt counts, the item's end does not again.
   */
  attempt(kind: string, outcome: AttemptOutcomeLabel, seconds: number, moved: boolean): void;
  /** An item failed without an attempt (target deleted or disabled, payload gone, no URL). */
  failedWithoutAttempt(kind: string): void;
  retryScheduled(kind: string): void;
  sweeperRequeued(count: number): void;
  /** A delivery held without an attempt (target or organization at its cap, circuit open). */
  held(kind: string, reason: HoldReasonLabel): void;
  /** A target's circuit opened (deliveries held) or closed again. */
  circuit(kind: string, move: 'opened' | 'closed'): void;
}

export const holdReasons = ['target_cap', 'org_cap', 'circuit_open'] as const;
export type HoldReasonLabel = (typeof holdReasons)[number];

interface KindLabels {
  attempt: Record<AttemptOutcomeLabel, { kind: string; outcome: string }>;
  ended: Record<'EXPIRED' | 'FAILED', { kind: string; status: string }>;
  kind: { kind: string };
}

export function createDeliveryMetrics(registry: Registry): DeliveryMetrics {
  const deliveries = new Counter({
    name: 'evds_deliveries_total',
    help: 'Delivery attempts made, by queue kind and the state they moved the item to',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'evds_delivery_attempt_duration_seconds',
    help: 'Duration of one delivery attempt (connect, send, answer), by queue kind and outcome',
    labelNames: ['kind', 'outcome'],
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
    registers: [registry],
  });
  const retries = new Counter({
    name: 'evds_delivery_retries_scheduled_total',
    help: 'Retries scheduled after a failed attempt, by queue kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  const undelivered = new Counter({
    name: 'evds_items_undelivered_total',
    help: 'Items that ended without being delivered, by queue kind and final state (EXPIRED, FAILED)',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });
  const requeued = new Counter({
    name: 'evds_sweeper_requeued_total',
    help: 'Pending items the sweeper found without a live job and enqueued again',
    registers: [registry],
  });

  const held = new Counter({
    name: 'evds_deliveries_held_total',
    help: 'Deliveries held without an attempt (no worker slot taken), by queue kind and reason',
    labelNames: ['kind', 'reason'],
    registers: [registry],
  });
  const circuits = new Counter({
    name: 'evds_circuit_transitions_total',
    help: "Targets' circuits opened (deliveries held for probes) or closed again, by queue kind",
    labelNames: ['kind', 'move'],
    registers: [registry],
  });

  // Labels per kind are built once (and their series started at 0); kinds come from the queue catalog.
  const byKind = new Map<string, KindLabels>();
  const labelsOf = (kind: string): KindLabels => {
    let labels = byKind.get(kind);
    if (!labels) {
      labels = {
        attempt: Object.fromEntries(attemptOutcomes.map((outcome) => [outcome, { kind, outcome }])) as Record<
          AttemptOutcomeLabel,
          { kind: string; outcome: string }
        >,
        ended: { EXPIRED: { kind, status: 'EXPIRED' }, FAILED: { kind, status: 'FAILED' } },
        kind: { kind },
      };
      byKind.set(kind, labels);
      for (const outcome of attemptOutcomes) deliveries.inc(labels.attempt[outcome], 0);
      retries.inc(labels.kind, 0);
      undelivered.inc(labels.ended.EXPIRED, 0);
      undelivered.inc(labels.ended.FAILED, 0);
      for (const reason of holdReasons) held.inc({ kind, reason }, 0);
      circuits.inc({ kind, move: 'opened' }, 0);
      circuits.inc({ kind, move: 'closed' }, 0);
    }
    return labels;
  };
  for (const kind of deliveryKinds) labelsOf(kind);
  requeued.inc(0);

  return {
    attempt(kind, outcome, seconds, moved) {
      const labels = labelsOf(kind);
      deliveries.inc(labels.attempt[outcome]);
      latency.observe(labels.attempt[outcome], seconds);
      if (moved && (outcome === 'EXPIRED' || outcome === 'FAILED')) undelivered.inc(labels.ended[outcome]);
    },
    failedWithoutAttempt: (kind) => undelivered.inc(labelsOf(kind).ended.FAILED),
    retryScheduled: (kind) => retries.inc(labelsOf(kind).kind),
    sweeperRequeued: (count) => requeued.inc(count),
    held: (kind, reason) => held.inc({ kind, reason }),
    circuit: (kind, move) => circuits.inc({ kind, move }),
  };
}
