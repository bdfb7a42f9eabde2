// Billing shapes that only this page reads, as packages/billing/src/views.ts defines them (Unix seconds).

export interface Invoice {
  id: string;
  number: string | null;
  created_at: number;
  status: string;
  amount_due_cents: number;
  amount_paid_cents: number;
  currency: string;
  hosted_invoice_url: string | null;
}

export interface Invoices {
  invoices: Invoice[];
  billing_enabled: boolean;
}

export interface Reconciliation {
  status: 'disabled' | 'not_connected' | 'pending' | 'mismatch' | 'reconciled';
  period_start: number;
  period_end: number;
  local: {
    accepted_events: number;
    pending_meter_events: number;
    estimated_units: number;
    estimated_cents: number;
  };
  processor: { metered_events: number } | null;
  differences: { events: number; cents: number | null } | null;
  invoice: {
    id: string;
    number: string | null;
    status: string;
    subtotal_cents: number;
    currency: string;
    period_start: number;
    period_end: number;
  } | null;
}
