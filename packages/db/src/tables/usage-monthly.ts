import type { Selectable } from 'kysely';

/** Counters of usage_records per organization and calendar month (UTC), kept by triggers; never written by code. */
export interface UsageMonthlyTable {
  org_id: string;
  period_start: Date;
  shard: number;
  accepted_events: number;
  reported_events: number;
}
export type UsageMonthly = Selectable<UsageMonthlyTable>;
