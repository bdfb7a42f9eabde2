// The 'billing' maintenance task: walks the organizations the payment-failure machine can move, asks
// the processor for each customer's invoices and applies the moves. It runs only while live billing
// is enabled; with the disabled processor it does nothing at all.
import { listBillingAccounts, moveBillingState, type BillingAccount, type Db } from '@evds/db';
import type { Logger } from '@evds/runtime';
import type { PaymentProcessor } from './processor.ts';
import { latestSettledInvoice, nextBillingState, type BillingMove } from './transitions.ts';

export interface BillingTaskDeps {
  db: Db;
  processor: PaymentProcessor;
  graceSeconds: number;
  logger?: Logger;
  /** Runs after any state moved (ingest replicas cache billing states: this tells them to re-read). */
  onMoved?: () => Promise<void>;
}

export interface AppliedMove extends BillingMove {
  orgId: string;
}

const PAGE = 200;
/** The processor's invoice list is read this deep; the newest paid or failed one decides. */
const INVOICES = 12;

/** Evaluates one organization against its processor invoices and applies the move, if any. */
export async function evaluateBillingAccount(
  deps: BillingTaskDeps,
  account: BillingAccount,
  now: Date,
): Promise<AppliedMove | null> {
  const invoice = account.processor_customer_id
    ? latestSettledInvoice(await deps.processor.listInvoices(account.processor_customer_id, INVOICES))
    : null;
  const from = { status: account.billing_status, graceEndsAt: account.billing_grace_ends_at };
  const move = nextBillingState(from, { now, graceSeconds: deps.graceSeconds, invoice });
  if (!move) return null;
  // Compare and set: an operator's change since the read wins; the next run looks again.
  const applied = await moveBillingState(deps.db, account.id, from, move.to);
  return applied ? { ...move, orgId: account.id } : null;
}

export async function runBillingMoves(deps: BillingTaskDeps, now: Date): Promise<AppliedMove[]> {
  if (!deps.processor.enabled) return [];
  const moved: AppliedMove[] = [];
  let failures = 0;
  let afterId: string | null = null;
  for (;;) {
    const page = await listBillingAccounts(deps.db, { afterId, limit: PAGE });
    for (const account of page) {
      try {
        const m = await evaluateBillingAccount(deps, account, now);
        if (m) moved.push(m);
      } catch (err) {
        // One customer the processor cannot answer for must not hold up the others.
        failures++;
        deps.logger?.warn({ err, orgId: account.id }, 'billing: could not evaluate organization');
      }
    }
    if (page.length < PAGE) break;
    afterId = page[page.length - 1]?.id ?? null;
  }
  for (const m of moved)
    deps.logger?.info({ orgId: m.orgId, to: m.to.status, reason: m.reason }, 'billing state moved');
  if (failures > 0) deps.logger?.warn({ failures }, 'billing: some organizations were not evaluated');
  if (moved.length > 0) await deps.onMoved?.();
  return moved;
}
