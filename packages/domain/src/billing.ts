import type { BillingStatus } from './states.ts';

export const PRICE_CENTS_PER_UNIT = 10;
export const UNIT_SIZE = 1000;

/** Units are rounded up to the next 1,000 accepted items; exempt workspaces are never charged. */
export function estimate(accepted: number, status: BillingStatus): { units: number; cents: number } {
  if (status === 'exempt') return { units: 0, cents: 0 };
  const units = Math.ceil(accepted / UNIT_SIZE);
  return { units, cents: units * PRICE_CENTS_PER_UNIT };
}

/** The calendar month (UTC) holding `at`, as Unix seconds: [start, end). */
export function monthPeriod(at: Date): { start: number; end: number } {
  const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  const end = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  return { start: start / 1000, end: end / 1000 };
}
