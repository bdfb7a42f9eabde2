import { withTimeout } from '@evds/runtime';
import { Gauge, type Registry } from 'prom-client';
import { collectErrors } from './registry.ts';

/** Targets whose circuit is open or half-open right now (deployment-wide, read from Redis when scraped). */
export function registerCircuitGauge(
  registry: Registry,
  read: () => Promise<number>,
  opts: { timeoutMs?: number } = {},
): void {
  const errors = collectErrors(registry);
  new Gauge({
    name: 'evds_circuits_open',
    help: "Targets whose circuit is open or half-open: their deliveries wait for a probe's success",
    registers: [registry],
    async collect() {
      try {
        this.set(await withTimeout(read(), opts.timeoutMs ?? 1000));
      } catch {
        this.reset();
        errors.inc({ collector: 'circuits' });
      }
    },
  });
}
