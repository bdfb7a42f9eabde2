// Queries several pages share: who is signed in, the back end's public config, the organization.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { AppConfig, Me, Organization } from '../types.ts';

export const meKey = ['me'] as const;

export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: ({ signal }) => api<Me>('/app/me', { signal }), retry: false });
}

/** Public and fixed for the life of the page. */
export function useAppConfig() {
  return useQuery({
    queryKey: ['app-config'],
    queryFn: ({ signal }) => api<AppConfig>('/app/config', { signal }),
    staleTime: Infinity,
  });
}

export function useOrg() {
  return useQuery({
    queryKey: ['org'],
    queryFn: ({ signal }) => api<{ org: Organization }>('/api/v1/orgs', { signal }),
    select: (r) => r.org,
  });
}
