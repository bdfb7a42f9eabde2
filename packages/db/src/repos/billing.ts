import type { BillingStatus } from '@evds/domain';
import type { Db } from '../database.ts';

/** What the billing moves need to know about an organization. */
export interface BillingAccount {
  id: string;
  billing_status: BillingStatus;
  billing_grace_ends_at: Date | null;
  processor_customer_id: string | null;
}

export interface BillingState {
  status: BillingStatus;
  graceEndsAt: Date | null;
}

/**
 * Organizations the payment-failure machine can move (active, grace, suspended), in id order, one
 * page at a time. Maintenance reads across organizations, like the sweeper.
 */
export async function listBillingAccounts(
  db: Db,
  page: { afterId: string | null; limit: number },
): Promise<BillingAccount[]> {
  let q = db
    .selectFrom('organizations')
    .select(['id', 'billing_status', 'billing_grace_ends_at', 'processor_customer_id'])
    .where('billing_status', 'in', ['active', 'grace', 'suspended']);
  if (page.afterId !== null) q = q.where('id', '>', page.afterId);
  return q.orderBy('id').limit(page.limit).execute();
}

export async function getBillingAccount(db: Db, orgId: string): Promise<BillingAccount | undefined> {
  return db
    .selectFrom('organizations')
    .select(['id', 'billing_status', 'billing_grace_ends_at', 'processor_customer_id'])
    .where('id', '=', orgId)
    .executeTakeFirst();
}

/** The organization a processor customer belongs to (processor webhooks name customers, not orgs). */
export async function findBillingAccountByCustomer(
  db: Db,
  customerId: string,
): Promise<BillingAccount | undefined> {
  return db
    .selectFrom('organizations')
    .select(['id', 'billing_status', 'billing_grace_ends_at', 'processor_customer_id'])
    .where('processor_customer_id', '=', customerId)
    .executeTakeFirst();
}

/**
 * Moves an organization's billing state only if it is still `from` (compare and set): an operator's
 * `set-billing` or a concurrent webhook in between wins, and this move is dropped. True when applied.
 */
export async function moveBillingState(
  db: Db,
  orgId: string,
  from: BillingState,
  to: BillingState,
): Promise<boolean> {
  const r = await db
    .updateTable('organizations')
    .set({ billing_status: to.status, billing_grace_ends_at: to.graceEndsAt, updated_at: new Date() })
    .where('id', '=', orgId)
    .where('billing_status', '=', from.status)
    .where((eb) =>
      from.graceEndsAt === null
        ? eb('billing_grace_ends_at', 'is', null)
        : eb('billing_grace_ends_at', '=', from.graceEndsAt),
    )
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Records the processor customer created for an organization (by checkout) and whether it can pay. */
export async function setProcessorCustomer(
  db: Db,
  orgId: string,
  customerId: string,
  hasPaymentMethod?: boolean,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set({
      processor_customer_id: customerId,
      ...(hasPaymentMethod === undefined ? {} : { has_payment_method: hasPaymentMethod }),
      updated_at: new Date(),
    })
    .where('id', '=', orgId)
    .execute();
}
