import { collectDefaultMetrics, Counter, Registry } from 'prom-client';

export type { Registry } from 'prom-client';

/**
 * A registry of one service's metrics: the process defaults (CPU, memory, event loop lag, GC, handles)
 * plus whatever the service registers. Each process has its own, so tests can run several services in
 * one process; every series carries a `service` label.
 */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** A scrape-time collection that failed or ran out of time (its gauges are left empty for that scrape). */
export function collectErrors(registry: Registry): Counter<'collector'> {
  const name = 'evds_metrics_collect_errors_total';
  return (
    (registry.getSingleMetric(name) as Counter<'collector'> | undefined) ??
    new Counter({
      name,
      help: 'Scrape-time collections that failed or timed out, by collector',
      labelNames: ['collector'],
      registers: [registry],
    })
  );
}
