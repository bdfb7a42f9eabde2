// This month's usage with the estimate (GET /api/v1/usage) and the billing status (GET /api/v1/billing,
// a session route). While live billing is off a banner says so plainly: nothing is charged.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api.ts';
import { ErrorNotice, Loading } from '../../components/status.tsx';
import { formatCents, formatCount, formatDate, formatTime } from '../../lib/format.ts';
import type { BillingStatus, Usage } from '../../types.ts';

const statusText: Record<BillingStatus['status'], string> = {
  pending: 'Pending: ingestion and key creation wait for activation',
  active: 'Active',
  grace: 'Grace period: a payment failed',
  suspended: 'Suspended: ingestion and key creation answer 402',
  exempt: 'Exempt: founder-provisioned workspace',
};

export function BillingPanel() {
  const billing = useQuery({
    queryKey: ['billing'],
    queryFn: ({ signal }) => api<BillingStatus>('/api/v1/billing', { signal }),
  });
  if (billing.isPending) return <Loading label="Loading billing status…" />;
  if (billing.error) return <ErrorNotice error={billing.error} />;
  const b = billing.data;
  return (
    <section className="billing-banner" aria-labelledby="billing-heading">
      <div>
        <h2 id="billing-heading">Billing status: {b.status}</h2>
        <p>
          {statusText[b.status]}
          {b.grace_ends_at !== null && <> (grace ends {formatTime(b.grace_ends_at)})</>}. Price:{' '}
          {formatCents(b.price_cents)} per {formatCount(b.unit_size)} accepted items.
        </p>
      </div>
      {!b.billing_enabled && (
        <p className="notice info banner-note" role="note">
          <strong>Billing is disabled during the beta.</strong> Accepted items are not charged; usage stays
          visible here.
        </p>
      )}
    </section>
  );
}

export function UsagePanel() {
  const usage = useQuery({
    queryKey: ['usage'],
    queryFn: ({ signal }) => api<{ usage: Usage }>('/api/v1/usage', { signal }),
    select: (r) => r.usage,
  });
  return (
    <section aria-labelledby="usage-heading" className="section card">
      <h2 id="usage-heading">Usage this month</h2>
      {usage.isPending ? (
        <Loading />
      ) : usage.error ? (
        <ErrorNotice error={usage.error} />
      ) : (
        <>
          <dl className="pairs">
            <dt>Accepted items</dt>
            <dd>{formatCount(usage.data.accepted_events)}</dd>
            <dt>Estimated units</dt>
            <dd>{formatCount(usage.data.estimated_units)}</dd>
            <dt>Estimate</dt>
            <dd>{formatCents(usage.data.estimated_cents)}</dd>
            <dt>Waiting to be reported</dt>
            <dd>{formatCount(usage.data.pending_meter_events)}</dd>
          </dl>
          <p className="muted small">
            Period {formatDate(usage.data.period_start)} to {formatDate(usage.data.period_end - 1)}. Test
            events, retries and replays are never counted. <Link to="/org">Organization & billing</Link>
          </p>
        </>
      )}
    </section>
  );
}
