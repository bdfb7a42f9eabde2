// Overview: how deliveries are going (success rate, latency, events by status, mailbox backlog, a chart
// over time), this month's usage with its estimate, and the billing status.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { Segmented } from '../../components/segmented.tsx';
import { ErrorNotice, Loading } from '../../components/status.tsx';
import type { Stats, Timeseries } from '../../types.ts';
import { BillingPanel, UsagePanel } from './billing-panels.tsx';
import { DeliveriesChart } from './deliveries-chart.tsx';
import { StatCards, StatusTable } from './stat-cards.tsx';

export type Window = '24h' | '7d';
const windows = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
] as const;

export function OverviewPage() {
  const [win, setWin] = useState<Window>('24h');
  const stats = useQuery({
    queryKey: ['stats', win],
    queryFn: ({ signal }) => api<Stats>(`/api/v1/stats?window=${win}`, { signal }),
    refetchInterval: 30_000,
  });
  const series = useQuery({
    queryKey: ['timeseries', win],
    queryFn: ({ signal }) => api<Timeseries>(`/api/v1/stats/timeseries?window=${win}`, { signal }),
    refetchInterval: 30_000,
  });
  return (
    <>
      <PageHeader
        title="Overview"
        subtitle="Deliveries, usage and billing for your organization"
        actions={<Segmented label="Time window" options={windows} value={win} onChange={setWin} />}
      />
      <BillingPanel />
      <section aria-labelledby="deliveries-heading" className="section">
        <h2 id="deliveries-heading">Deliveries in the last {win === '24h' ? '24 hours' : '7 days'}</h2>
        {stats.isPending ? (
          <Loading />
        ) : stats.error ? (
          <ErrorNotice error={stats.error} />
        ) : (
          <StatCards stats={stats.data} />
        )}
      </section>
      <section aria-labelledby="chart-heading" className="section card">
        <h2 id="chart-heading">Deliveries over time</h2>
        {series.isPending ? (
          <Loading label="Loading the chart…" />
        ) : series.error ? (
          <ErrorNotice error={series.error} />
        ) : (
          <DeliveriesChart series={series.data} />
        )}
      </section>
      <div className="grid two">
        <section aria-labelledby="status-heading" className="section card">
          <h2 id="status-heading">Events by status</h2>
          {stats.isPending ? (
            <Loading />
          ) : stats.error ? (
            <ErrorNotice error={stats.error} />
          ) : (
            <StatusTable stats={stats.data} />
          )}
        </section>
        <UsagePanel />
      </div>
    </>
  );
}
