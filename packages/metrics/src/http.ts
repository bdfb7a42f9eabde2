import { Counter, Histogram, type Registry } from 'prom-client';

export interface HttpMetrics {
  /** One answered request. `route` is the route's path template, or "unmatched" when none matched. */
  observe(route: string, method: string, status: number, seconds: number): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

interface Labels {
  count: { route: string; method: string; status: string };
  time: { route: string; method: string; status_class: string };
}

/**
 * Requests by route template, method and status, and their duration. Route templates and statuses
 * come from small fixed sets (the route table, the status table); any other method is "OTHER".
 */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  const requests = new Counter({
    name: 'evds_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'evds_http_request_duration_seconds',
    help: 'Time from the request reaching the app to the last byte of the answer',
    labelNames: ['route', 'method', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Label objects are built once per (route, method, status) and reused, so a request allocates none.
  const cache = new Map<string, Map<string, Map<number, Labels>>>();
  const labelsOf = (route: string, method: string, status: number): Labels => {
    let byMethod = cache.get(route);
    if (!byMethod) cache.set(route, (byMethod = new Map<string, Map<number, Labels>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Labels>()));
    let labels = byStatus.get(status);
    if (!labels) {
      labels = {
        count: { route, method, status: String(status) },
        time: { route, method, status_class: `${Math.floor(status / 100)}xx` },
      };
      byStatus.set(status, labels);
    }
    return labels;
  };
  return {
    observe(route, method, status, seconds) {
      const labels = labelsOf(route, METHODS.has(method) ? method : 'OTHER', status);
      requests.inc(labels.count);
      duration.observe(labels.time, seconds);
    },
  };
}
