// Invoices and the reconciliation of the local ledger against the processor. While billing is
// disabled the API answers no invoices and null processor figures; the page says why instead of
// showing an empty table, and shows each missing figure as "—".
import { Empty, ErrorNotice, Loading } from '../../components/status.tsx';
import { formatCents, formatCount, formatTime } from '../../lib/format.ts';
import { useInvoices, useReconciliation } from './queries.ts';
import type { Reconciliation } from './types.ts';

const dash = '—';
const countOrDash = (n: number | null | undefined) => (n === null || n === undefined ? dash : formatCount(n));
const centsOrDash = (n: number | null | undefined) => (n === null || n === undefined ? dash : formatCents(n));

export function InvoicesSection() {
  const invoices = useInvoices();
  return (
    <section className="card section" aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">Invoices</h2>
      {invoices.isPending ? (
        <Loading label="Loading invoices…" />
      ) : invoices.isError ? (
        <ErrorNotice error={invoices.error} />
      ) : !invoices.data.billing_enabled ? (
        <p className="muted">
          No invoices: billing is disabled during the beta, so none are issued. They will be listed here once
          live billing starts.
        </p>
      ) : invoices.data.invoices.length === 0 ? (
        <Empty>No invoice yet.</Empty>
      ) : (
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Date</th>
              <th scope="col">Status</th>
              <th scope="col">Amount due</th>
              <th scope="col">Paid</th>
              <th scope="col">Invoice</th>
            </tr>
          </thead>
          <tbody>
            {invoices.data.invoices.map((i) => (
              <tr key={i.id}>
                <td>{i.number ?? i.id}</td>
                <td>{formatTime(i.created_at)}</td>
                <td>{i.status}</td>
                <td>{formatCents(i.amount_due_cents)}</td>
                <td>{formatCents(i.amount_paid_cents)}</td>
                <td>
                  {i.hosted_invoice_url ? (
                    <a href={i.hosted_invoice_url} target="_blank" rel="noreferrer noopener">
                      View<span className="visually-hidden"> invoice {i.number ?? i.id}</span>
                    </a>
                  ) : (
                    dash
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const reconciliationWords: Record<Reconciliation['status'], string> = {
  disabled: 'Live billing is disabled: there is no processor to compare with.',
  not_connected: 'No payment processor customer yet: nothing to compare with.',
  pending: 'Some usage records still wait to be reported to the processor.',
  mismatch: 'The local ledger and the processor differ.',
  reconciled: 'Every figure matches and nothing waits.',
};

export function ReconciliationSection() {
  const rec = useReconciliation();
  return (
    <section className="card section" aria-labelledby="reconciliation-heading">
      <h2 id="reconciliation-heading">Reconciliation</h2>
      {rec.isPending ? (
        <Loading label="Loading reconciliation…" />
      ) : rec.isError ? (
        <ErrorNotice error={rec.error} />
      ) : (
        <ReconciliationTable r={rec.data} />
      )}
    </section>
  );
}

function ReconciliationTable({ r }: { r: Reconciliation }) {
  return (
    <>
      <p>
        Status: <span className="badge neutral">{r.status}</span> {reconciliationWords[r.status]}
      </p>
      <p className="muted">
        Period {formatTime(r.period_start)} to {formatTime(r.period_end)}.
      </p>
      <table className="table compact org-rec">
        <caption className="visually-hidden">
          The local ledger against the payment processor, this month
        </caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Local ledger</th>
            <th scope="col">Processor</th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Accepted items</th>
            <td>{formatCount(r.local.accepted_events)}</td>
            <td>{countOrDash(r.processor?.metered_events)}</td>
            <td>{countOrDash(r.differences?.events)}</td>
          </tr>
          <tr>
            <th scope="row">Pending meter events</th>
            <td>{formatCount(r.local.pending_meter_events)}</td>
            <td>{dash}</td>
            <td>{dash}</td>
          </tr>
          <tr>
            <th scope="row">Estimated units</th>
            <td>{formatCount(r.local.estimated_units)}</td>
            <td>{dash}</td>
            <td>{dash}</td>
          </tr>
          <tr>
            <th scope="row">Amount</th>
            <td>{formatCents(r.local.estimated_cents)}</td>
            <td>{centsOrDash(r.invoice?.subtotal_cents)}</td>
            <td>{centsOrDash(r.differences?.cents)}</td>
          </tr>
        </tbody>
      </table>
      <p className="muted">
        Invoice for this period:{' '}
        {r.invoice ? `${r.invoice.number ?? r.invoice.id} (${r.invoice.status})` : dash}
      </p>
    </>
  );
}
