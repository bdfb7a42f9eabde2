import { sql } from 'kysely';
import type { Db } from '../database.ts';

export interface UsageSummary {
  /** Usage records (newly accepted items of every kind) created in the period. */
  accepted_events: number;
  /** Those of them not yet reported to the payment processor. */
  pending_meter_events: number;
}

/**
 * One organization's usage in the calendar month starting at `periodStart` (UTC), read from the
 * trigger-kept monthly rollup: a handful of counter rows however many records the month holds.
 */
export async function usageSummary(db: Db, orgId: string, periodStart: Date): Promise<UsageSummary> {
  const row = await db
    .selectFrom('usage_monthly')
    .select([
      sql<number>`coalesce(sum(accepted_events), 0)::bigint`.as('accepted_events'),
      sql<number>`coalesce(sum(accepted_events - reported_events), 0)::bigint`.as('pending_meter_events'),
    ])
    .where('org_id', '=', orgId)
    .where('period_start', '=', periodStart)
    .executeTakeFirstOrThrow();
  return row;
}
