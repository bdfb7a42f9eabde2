import type { Selectable } from 'kysely';

/**
 * Delivery attempts per organization, grain (900, 3600 or 86400 seconds) and bucket, by outcome, with
 * a histogram of their durations (see the 2026-11-27T1100 migration); kept by triggers, never written
 * by code except pruning.
 */
export interface AttemptRollupsTable {
  org_id: string;
  grain_seconds: number;
  bucket_start: Date;
  shard: number;
  succeeded: number;
  failed: number;
  /** Counts per log-spaced duration bucket (160 of them). */
  latency: string[];
}
export type AttemptRollup = Selectable<AttemptRollupsTable>;
