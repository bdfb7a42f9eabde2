// Billing status and this month's usage, and the banner that says nothing is charged during the beta.
import { ErrorNotice, Loading } from '../../components/status.tsx';
import { formatCents, formatCount, formatTime } from '../../lib/format.ts';
import type { BillingStatus } from '../../types.ts';
import { useBilling, useUsage } from './queries.ts';

const statusWords: Record<BillingStatus['status'], string> = {
  pending: 'Pending: waiting for a payment method',
  active: 'Active',
  grace: 'Grace period: a payment failed',
  suspended: 'Suspended: new items are refused',
  exempt: 'Exempt: not billed',
};

export function BillingSection() {
  const billing = useBilling();
  return (
    <section className="card section" aria-labelledby="billing-heading">
      <h2 id="billing-heading">Billing</h2>
      {billing.isPending ? (
        <Loading label="Loading billing status…" />
      ) : billing.isError ? (
        <ErrorNotice error={billing.error} />
      ) : (
        <>
          <dl className="pairs">
            <dt>Status</dt>
            <dd>
              <span className="badge neutral">{billing.data.status}</span> {statusWords[billing.data.status]}
            </dd>
            {billing.data.grace_ends_at !== null && (
              <>
                <dt>Grace ends</dt>
                <dd>{formatTime(billing.data.grace_ends_at)}</dd>
              </>
            )}
            <dt>Payment method</dt>
            <dd>{billing.data.has_payment_method ? 'On file' : 'None'}</dd>
            <dt>Price</dt>
            <dd>
              {formatCents(billing.data.price_cents)} ({billing.data.currency.toUpperCase()}) per{' '}
              {formatCount(billing.data.unit_size)} accepted items
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}

/** The beta's banner, above every figure of the page, so no estimate is read as a bill. */
export function BillingDisabledBanner() {
  const billing = useBilling();
  if (billing.data?.billing_enabled !== false) return null;
  return (
    <p className="notice info" role="note">
      <strong>Billing is disabled during the beta.</strong> Nothing is charged: usage is counted so you can
      see what it would cost, and no invoice is issued.
    </p>
  );
}

export function UsageSection() {
  const usage = useUsage();
  return (
    <section className="card section" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage this month</h2>
      {usage.isPending ? (
        <Loading label="Loading usage…" />
      ) : usage.isError ? (
        <ErrorNotice error={usage.error} />
      ) : (
        <dl className="pairs">
          <dt>Period</dt>
          <dd>
            {formatTime(usage.data.usage.period_start)} to {formatTime(usage.data.usage.period_end)}
          </dd>
          <dt>Accepted items</dt>
          <dd>{formatCount(usage.data.usage.accepted_events)}</dd>
          <dt>Estimated units</dt>
          <dd>{formatCount(usage.data.usage.estimated_units)}</dd>
          <dt>Estimated charge</dt>
          <dd>{formatCents(usage.data.usage.estimated_cents)}</dd>
          <dt>Not yet reported to the processor</dt>
          <dd>{formatCount(usage.data.usage.pending_meter_events)}</dd>
        </dl>
      )}
    </section>
  );
}
