// The payment processor behind one interface. Live billing is disabled during the beta
// (decisions §7), so the only implementation is the disabled one; a real adapter implements the same
// interface and fixes the checkout price and return URLs itself (the customer cannot choose them).
import { AppError } from '@evds/domain';

/** Invoice states as this service sees them; an adapter maps the processor's own. */
export const invoiceStatuses = ['draft', 'open', 'paid', 'failed', 'void'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

export interface ProcessorInvoice {
  id: string;
  number: string | null;
  createdAt: Date;
  /** `failed`: a payment attempt failed and the invoice is unpaid. */
  status: InvoiceStatus;
  subtotalCents: number;
  amountDueCents: number;
  amountPaidCents: number;
  currency: string;
  hostedInvoiceUrl: string | null;
  periodStart: Date;
  periodEnd: Date;
}

export interface UsageReport {
  /** Accepted items being reported, all from the month starting at periodStart. */
  events: number;
  periodStart: Date;
  /** The processor must count a report with the same key once. */
  idempotencyKey: string;
}

export interface PaymentProcessor {
  /** False while live billing is disabled: every other method then rejects with billing_disabled. */
  readonly enabled: boolean;
  /** A checkout session for the organization's customer (created when it has none yet). */
  createCheckout(input: {
    orgId: string;
    customerId: string | null;
  }): Promise<{ url: string; customerId: string }>;
  /** A short-lived customer portal URL. */
  createPortal(customerId: string): Promise<{ url: string }>;
  /** The customer's most recent invoices, newest first. */
  listInvoices(customerId: string, limit: number): Promise<ProcessorInvoice[]>;
  /** How many events the processor's meter holds for the customer in [start, end). */
  meterSummary(customerId: string, period: { start: Date; end: Date }): Promise<{ events: number }>;
  reportUsage(customerId: string, report: UsageReport): Promise<void>;
}

const disabled = (): Promise<never> =>
  Promise.reject(new AppError('billing_disabled', 'live billing is disabled during the beta'));

export const disabledProcessor: PaymentProcessor = {
  enabled: false,
  createCheckout: disabled,
  createPortal: disabled,
  listInvoices: disabled,
  meterSummary: disabled,
  reportUsage: disabled,
};

/**
 * The processor for this deployment. No processor integration is built yet, so BILLING_ENABLED=true
 * is refused at start rather than served half-working.
 */
export function createPaymentProcessor(opts: { enabled: boolean }): PaymentProcessor {
  if (!opts.enabled) return disabledProcessor;
  throw new Error(
    'invalid configuration: BILLING_ENABLED=true, but this build has no payment-processor integration',
  );
}
