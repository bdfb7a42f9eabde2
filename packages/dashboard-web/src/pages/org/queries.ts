// The reads of this page. Keys carry the page's own prefix: other pages may cache the same routes
// under shapes of their own, and a shared key would mix them.
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../api.ts';
import type { BillingStatus, Organization, Usage } from '../../types.ts';
import type { Invoices, Reconciliation } from './types.ts';

const retry = (n: number, e: unknown) => n < 2 && !(e instanceof ApiError && e.status < 500);

const get =
  <T>(path: string) =>
  ({ signal }: { signal: AbortSignal }) =>
    api<T>(path, { signal });

export const useOrg = () =>
  useQuery({ queryKey: ['org-page', 'org'], queryFn: get<{ org: Organization }>('/api/v1/orgs'), retry });

export const useBilling = () =>
  useQuery({ queryKey: ['org-page', 'billing'], queryFn: get<BillingStatus>('/api/v1/billing'), retry });

export const useUsage = () =>
  useQuery({ queryKey: ['org-page', 'usage'], queryFn: get<{ usage: Usage }>('/api/v1/usage'), retry });

export const useInvoices = () =>
  useQuery({ queryKey: ['org-page', 'invoices'], queryFn: get<Invoices>('/api/v1/billing/invoices'), retry });

export const useReconciliation = () =>
  useQuery({
    queryKey: ['org-page', 'reconciliation'],
    queryFn: get<Reconciliation>('/api/v1/billing/reconciliation'),
    retry,
  });
