// The payment-failure machine of the spec's billing-state table, as a pure function of the current
// state, the clock and the latest settled invoice. Maintenance and processor webhooks both use it.
import type { BillingStatus } from '@evds/domain';
import type { InvoiceStatus, ProcessorInvoice } from './processor.ts';

export interface BillingState {
  status: BillingStatus;
  /** Set exactly while the state is `grace`. */
  graceEndsAt: Date | null;
}

export type MoveReason = 'payment_failed' | 'grace_started' | 'grace_expired' | 'payment_succeeded';

export interface BillingMove {
  to: BillingState;
  reason: MoveReason;
}

export interface MoveInput {
  now: Date;
  graceSeconds: number;
  /** The newest invoice that is paid or failed (see latestSettledInvoice); null when there is none. */
  invoice: { status: Extract<InvoiceStatus, 'paid' | 'failed'> } | null;
}

/**
 * active --failed invoice--> grace (ends now + grace); grace --paid--> active; grace --grace over,
 * still unpaid--> suspended; suspended --paid--> active. A grace state without an end date (set by an
 * operator) gets one. pending and exempt never move here. Null: no move.
 */
export function nextBillingState(cur: BillingState, input: MoveInput): BillingMove | null {
  const paid = input.invoice?.status === 'paid';
  const failed = input.invoice?.status === 'failed';
  const active: BillingState = { status: 'active', graceEndsAt: null };
  switch (cur.status) {
    case 'active':
      if (!failed) return null;
      return { to: graceFrom(input), reason: 'payment_failed' };
    case 'grace':
      if (paid) return { to: active, reason: 'payment_succeeded' };
      if (cur.graceEndsAt === null) return { to: graceFrom(input), reason: 'grace_started' };
      if (input.now.getTime() >= cur.graceEndsAt.getTime())
        return { to: { status: 'suspended', graceEndsAt: null }, reason: 'grace_expired' };
      return null;
    case 'suspended':
      return paid ? { to: active, reason: 'payment_succeeded' } : null;
    case 'pending':
    case 'exempt':
      return null;
  }
}

const graceFrom = (input: MoveInput): BillingState => ({
  status: 'grace',
  graceEndsAt: new Date(input.now.getTime() + input.graceSeconds * 1000),
});

/** Drafts, open and void invoices say nothing about payment: the newest paid or failed one decides. */
export function latestSettledInvoice(
  invoices: Pick<ProcessorInvoice, 'status' | 'createdAt'>[],
): { status: 'paid' | 'failed' } | null {
  let best: { status: 'paid' | 'failed'; at: number } | null = null;
  for (const inv of invoices) {
    if (inv.status !== 'paid' && inv.status !== 'failed') continue;
    const at = inv.createdAt.getTime();
    if (!best || at > best.at) best = { status: inv.status, at };
  }
  return best && { status: best.status };
}
