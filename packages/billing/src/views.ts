import { billingStatuses, PRICE_CENTS_PER_UNIT, UNIT_SIZE } from '@evds/domain';
import { z } from 'zod';
import { invoiceStatuses } from './processor.ts';

const unix = (what: string) => z.number().int().describe(`${what} (Unix seconds)`);
const count = (what: string) => z.number().int().nonnegative().describe(what);

export const usageSchema = z.object({
  period_start: unix('First instant of the current calendar month, UTC'),
  period_end: unix('First instant of the next calendar month, UTC (exclusive)'),
  accepted_events: count(
    'Newly accepted items of every kind (webhook events, mailbox messages, a2a handoffs) this period; retries, replays, reads, claims, acks, rejected requests and idempotent duplicates never count',
  ),
  estimated_units: count('ceil(accepted_events / 1000); 0 for an exempt workspace'),
  estimated_cents: count('estimated_units × 10; 0 for an exempt workspace'),
  pending_meter_events: count(
    "This period's usage records not yet reported to the payment processor (all of them while live billing is disabled)",
  ),
});

export const billingStatusSchema = z.object({
  status: z.enum(billingStatuses),
  billing_enabled: z.boolean().describe('False during the beta: nothing is charged'),
  grace_ends_at: unix('When the grace period ends; set only in state grace').nullable(),
  has_payment_method: z.boolean(),
  currency: z.literal('usd'),
  price_cents: z.literal(PRICE_CENTS_PER_UNIT).describe('Price of one unit, in US cents'),
  unit_size: z.literal(UNIT_SIZE).describe('Accepted items per unit; usage is rounded up to whole units'),
});

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  created_at: unix('Invoice date'),
  status: z.enum(invoiceStatuses).describe('failed: a payment attempt failed and the invoice is unpaid'),
  amount_due_cents: z.number().int(),
  amount_paid_cents: z.number().int(),
  currency: z.string(),
  hosted_invoice_url: z.string().nullable(),
});

export const invoicesSchema = z.object({
  invoices: z.array(invoiceSchema).describe('Up to 12, newest first; empty without a processor customer'),
  billing_enabled: z.boolean(),
});

export const reconciliationStatuses = [
  'disabled',
  'not_connected',
  'pending',
  'mismatch',
  'reconciled',
] as const;

export const reconciliationSchema = z.object({
  status: z
    .enum(reconciliationStatuses)
    .describe(
      'disabled: live billing is off; not_connected: no processor customer yet; pending: local usage records still wait to be reported; mismatch: the figures differ; reconciled: nothing waits and every figure matches',
    ),
  period_start: unix('First instant of the current calendar month, UTC'),
  period_end: unix('First instant of the next calendar month, UTC (exclusive)'),
  local: z
    .object({
      accepted_events: count('Usage records of the period in the local ledger'),
      pending_meter_events: count('Of those, not yet reported to the processor'),
      estimated_units: count('ceil(accepted_events / 1000); 0 for an exempt workspace'),
      estimated_cents: count('estimated_units × 10; 0 for an exempt workspace'),
    })
    .describe('The local ledger for the current month'),
  processor: z
    .object({ metered_events: count("Events in the processor's meter for the period") })
    .nullable()
    .describe('Null while live billing is disabled or without a processor customer'),
  differences: z
    .object({
      events: z.number().int().describe('local.accepted_events − processor.metered_events'),
      cents: z
        .number()
        .int()
        .nullable()
        .describe("invoice.subtotal_cents − local.estimated_cents; null without this period's invoice"),
    })
    .nullable()
    .describe('Null while live billing is disabled or without a processor customer'),
  invoice: z
    .object({
      id: z.string(),
      number: z.string().nullable(),
      status: z.enum(invoiceStatuses),
      subtotal_cents: z.number().int(),
      currency: z.string(),
      period_start: unix('Invoice period start'),
      period_end: unix('Invoice period end'),
    })
    .nullable()
    .describe(
      "The processor's latest invoice for the current period; null while disabled or when there is none",
    ),
});
