// Billing management routes: session only (a new workspace sets up payment before it has a key).
// While live billing is disabled, checkout and portal answer 503, invoices an empty list and
// reconciliation the local figures with nulls for the processor's (decisions §7).
import { getBillingAccount, getOrganization, setProcessorCustomer, type Db } from '@evds/db';
import { AppError, notFound, PRICE_CENTS_PER_UNIT, UNIT_SIZE, unixOrNull, unixSeconds } from '@evds/domain';
import { defineRoute, type RouteDef, errorSchema } from '@evds/http';
import { z } from 'zod';
import { localUsage } from './local-usage.ts';
import type { PaymentProcessor, ProcessorInvoice } from './processor.ts';
import { billingStatusSchema, invoicesSchema, reconciliationSchema } from './views.ts';
import { webhookRoute } from './webhook-route.ts';

export interface BillingRouteDeps {
  db: Db;
  processor: PaymentProcessor;
  /** HMAC secret of processor webhooks; empty refuses them all. */
  webhookSecret: string;
  graceSeconds: number;
  now?: () => Date;
}

const INVOICE_LIMIT = 12;
const disabled503 = { description: 'live billing is disabled (billing_disabled)', schema: errorSchema };

const refuseWhileDisabled = (p: PaymentProcessor) => {
  if (!p.enabled) throw new AppError('billing_disabled', 'live billing is disabled during the beta');
};

export function billingRoutes(deps: BillingRouteDeps): RouteDef[] {
  const { db, processor } = deps;
  const now = deps.now ?? (() => new Date());
  const account = async (orgId: string) => {
    const a = await getBillingAccount(db, orgId);
    if (!a) throw notFound('organization');
    return a;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/billing',
      auth: 'S',
      tag: 'billing',
      summary: "The workspace's billing status and the published price",
      responses: { 200: { description: 'billing status', schema: billingStatusSchema } },
      handler: async ({ auth }) => {
        const org = await getOrganization(db, auth.orgId);
        if (!org) throw notFound('organization');
        return {
          body: {
            status: org.billing_status,
            billing_enabled: processor.enabled,
            grace_ends_at: unixOrNull(org.billing_grace_ends_at),
            has_payment_method: org.has_payment_method,
            currency: 'usd',
            price_cents: PRICE_CENTS_PER_UNIT,
            unit_size: UNIT_SIZE,
          } satisfies z.infer<typeof billingStatusSchema>,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/billing/checkout',
      auth: 'S',
      tag: 'billing',
      summary:
        'A payment-processor checkout session; the server fixes price and return URLs (body fields are ignored)',
      body: z
        .looseObject({})
        .describe('Ignored: any JSON object is accepted, nothing in it changes the price or the return URLs'),
      responses: {
        200: { description: 'checkout session', schema: z.object({ url: z.string() }) },
        409: { description: 'exempt workspaces are not billed', schema: errorSchema },
        503: disabled503,
      },
      handler: async ({ auth }) => {
        refuseWhileDisabled(processor);
        const a = await account(auth.orgId);
        if (a.billing_status === 'exempt')
          throw new AppError('conflict', 'this workspace is exempt from billing');
        const r = await processor.createCheckout({ orgId: a.id, customerId: a.processor_customer_id });
        if (r.customerId !== a.processor_customer_id) await setProcessorCustomer(db, a.id, r.customerId);
        return { body: { url: r.url } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/billing/portal',
      auth: 'S',
      tag: 'billing',
      summary: "A short-lived URL of the payment processor's customer portal",
      responses: {
        200: { description: 'portal session', schema: z.object({ url: z.string() }) },
        409: { description: 'no processor customer yet (start with checkout)', schema: errorSchema },
        503: disabled503,
      },
      handler: async ({ auth }) => {
        refuseWhileDisabled(processor);
        const a = await account(auth.orgId);
        if (!a.processor_customer_id)
          throw new AppError('conflict', 'no payment set up for this workspace yet; start with checkout');
        return { body: await processor.createPortal(a.processor_customer_id) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/billing/invoices',
      auth: 'S',
      tag: 'billing',
      summary: 'Up to 12 recent invoices, newest first (empty while live billing is disabled)',
      responses: { 200: { description: 'invoices', schema: invoicesSchema } },
      handler: async ({ auth }) => {
        if (!processor.enabled) return { body: { invoices: [], billing_enabled: false } };
        const a = await account(auth.orgId);
        const invoices = a.processor_customer_id
          ? await processor.listInvoices(a.processor_customer_id, INVOICE_LIMIT)
          : [];
        return {
          body: { invoices: invoices.slice(0, INVOICE_LIMIT).map(invoiceView), billing_enabled: true },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/billing/reconciliation',
      auth: 'S',
      tag: 'billing',
      summary: "The current month's local ledger against the processor's meter and latest invoice",
      responses: { 200: { description: 'reconciliation', schema: reconciliationSchema } },
      handler: async ({ auth }) => {
        const a = await account(auth.orgId);
        const at = now();
        const { period_start, period_end, ...local } = await localUsage(db, a.id, a.billing_status, at);
        const base = { period_start, period_end, local, processor: null, differences: null, invoice: null };
        if (!processor.enabled) return { body: { status: 'disabled', ...base } };
        const customer = a.processor_customer_id;
        if (!customer) return { body: { status: 'not_connected', ...base } };
        const [meter, invoices] = await Promise.all([
          processor.meterSummary(customer, {
            start: new Date(period_start * 1000),
            end: new Date(period_end * 1000),
          }),
          processor.listInvoices(customer, INVOICE_LIMIT),
        ]);
        const invoice = invoices
          .filter((i) => unixSeconds(i.periodStart) === period_start)
          .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())[0];
        const differences = {
          events: local.accepted_events - meter.events,
          cents: invoice ? invoice.subtotalCents - local.estimated_cents : null,
        };
        const status =
          local.pending_meter_events > 0
            ? 'pending'
            : differences.events === 0 && (differences.cents ?? 0) === 0
              ? 'reconciled'
              : 'mismatch';
        return {
          body: {
            ...base,
            status,
            processor: { metered_events: meter.events },
            differences,
            invoice: invoice
              ? {
                  id: invoice.id,
                  number: invoice.number,
                  status: invoice.status,
                  subtotal_cents: invoice.subtotalCents,
                  currency: invoice.currency,
                  period_start: unixSeconds(invoice.periodStart),
                  period_end: unixSeconds(invoice.periodEnd),
                }
              : null,
          } satisfies z.infer<typeof reconciliationSchema>,
        };
      },
    }),
    webhookRoute(deps),
  ];
}

const invoiceView = (i: ProcessorInvoice) => ({
  id: i.id,
  number: i.number,
  created_at: unixSeconds(i.createdAt),
  status: i.status,
  amount_due_cents: i.amountDueCents,
  amount_paid_cents: i.amountPaidCents,
  currency: i.currency,
  hosted_invoice_url: i.hostedInvoiceUrl,
});
