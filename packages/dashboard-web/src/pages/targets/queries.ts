// Target reads shared by the target pages and the events pages. Every target query key starts with
// 'targets', so one invalidation after a change refreshes them all.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import type { Endpoint, Target } from '../../types.ts';

export const targetsKey = ['targets'] as const;

/** Every target (the API lists all when no page is asked for; TARGETS_PER_ORG bounds them). */
export function useAllTargets() {
  return useQuery({
    queryKey: [...targetsKey, 'all'],
    queryFn: ({ signal }) => api<{ targets: Target[] }>('/api/v1/targets', { signal }),
    select: (r) => r.targets,
  });
}

export function useTarget(id: string) {
  return useQuery({
    queryKey: [...targetsKey, 'one', id],
    queryFn: ({ signal }) => api<{ target: Target }>(`/api/v1/targets/${encodeURIComponent(id)}`, { signal }),
    select: (r) => r.target,
  });
}

/** A webhook's event-type filter lives on the legacy endpoint view, as a JSON-encoded array. */
export function useEndpointEventTypes(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...targetsKey, 'endpoint', id],
    queryFn: ({ signal }) =>
      api<{ endpoint: Endpoint }>(`/api/v1/endpoints/${encodeURIComponent(id)}`, { signal }),
    select: (r) => parseTypes(r.endpoint.event_types),
    enabled,
  });
}

function parseTypes(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
