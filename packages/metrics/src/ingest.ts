import { Counter, type Registry } from 'prom-client';

/**
 * Every outcome of an ingestion: the kinds of packages/ingest's IngestResult, with an idempotent
 * duplicate ("duplicate") set apart from a new item ("accepted"). packages/ingest passes its result
 * kinds here, so the compiler refuses a new kind that is missing from this list.
 */
export const ingestOutcomes = [
  'accepted',
  'duplicate',
  'not_found',
  'billing_blocked',
  'disabled',
  'rate_limited',
  'too_large',
  'invalid',
  'filtered',
  'signature',
  'idempotency_conflict',
] as const;
export type IngestOutcome = (typeof ingestOutcomes)[number];

export interface IngestMetrics {
  item(outcome: IngestOutcome): void;
}

export function createIngestMetrics(registry: Registry): IngestMetrics {
  const items = new Counter({
    name: 'evds_ingest_items_total',
    help: 'Items offered to /e/ and /t/ that reached the ingest rules, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const labels = Object.fromEntries(ingestOutcomes.map((outcome) => [outcome, { outcome }])) as Record<
    IngestOutcome,
    { outcome: IngestOutcome }
  >;
  // Every series exists from the start (at 0), so a rate or a test's delta never misses its first item.
  for (const outcome of ingestOutcomes) items.inc(labels[outcome], 0);
  return { item: (outcome) => items.inc(labels[outcome]) };
}
