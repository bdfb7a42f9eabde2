import { usageSummary, type Db } from '@evds/db';
import { estimate, monthPeriod, type BillingStatus } from '@evds/domain';

export interface LocalUsage {
  period_start: number;
  period_end: number;
  accepted_events: number;
  estimated_units: number;
  estimated_cents: number;
  pending_meter_events: number;
}

/** The current calendar month (UTC) of an organization's local ledger, with its estimate. */
export async function localUsage(
  db: Db,
  orgId: string,
  status: BillingStatus,
  now: Date,
): Promise<LocalUsage> {
  const period = monthPeriod(now);
  const s = await usageSummary(db, orgId, new Date(period.start * 1000));
  const est = estimate(s.accepted_events, status);
  return {
    period_start: period.start,
    period_end: period.end,
    accepted_events: s.accepted_events,
    estimated_units: est.units,
    estimated_cents: est.cents,
    pending_meter_events: s.pending_meter_events,
  };
}
