import { probeAll } from '@evds/runtime';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { MetricValue } from 'prom-client';
import {
  createDeliveryMetrics,
  createHttpMetrics,
  createIngestMetrics,
  createRegistry,
  registerMailboxGauges,
  registerPoolGauges,
  registerQueueGauges,
  startMetricsServer,
  type MetricsServer,
  type Registry,
} from './index.ts';

/** Every metric a service can register, in one registry. */
function everything(): Registry {
  const registry = createRegistry('test');
  createHttpMetrics(registry);
  createIngestMetrics(registry);
  createDeliveryMetrics(registry);
  registerQueueGauges(registry, () => Promise.resolve({}));
  registerMailboxGauges(registry, () => Promise.resolve({ UNREAD: 0, CLAIMED: 0 }));
  registerPoolGauges(registry, () => ({ total: 1, idle: 1, waiting: 0, max: 10 }));
  return registry;
}

const series = async (registry: Registry, name: string): Promise<MetricValue<string>[]> =>
  (await registry.getSingleMetric(name)?.get())?.values ?? [];

const valueOf = async (registry: Registry, name: string, labels: Record<string, string>) =>
  (await series(registry, name)).find((v) =>
    Object.entries(labels).every(([k, x]) => String(v.labels[k]) === x),
  )?.value;

describe('metric names', () => {
  it('say what they measure: counters end in _total, histograms in a unit, gauges never in _total', async () => {
    const metrics = (await everything().getMetricsAsJSON()).filter((m) => m.name.startsWith('evds_'));
    expect(metrics.length).toBeGreaterThan(10);
    for (const m of metrics) {
      const type = String(m.type);
      const rule =
        type === 'counter'
          ? /_total$/
          : type === 'histogram'
            ? /_(seconds|bytes)$/
            : /^(?!.*_total$)evds_[a-z_]+$/;
      expect({ name: m.name, ok: rule.test(m.name) }).toEqual({ name: m.name, ok: true });
    }
  });
});

describe('counters', () => {
  it('start every fixed series at 0 and count by label', async () => {
    const registry = createRegistry('test');
    const ingest = createIngestMetrics(registry);
    expect(await valueOf(registry, 'evds_ingest_items_total', { outcome: 'too_large' })).toBe(0);
    ingest.item('too_large');
    ingest.item('too_large');
    ingest.item('accepted');
    expect(await valueOf(registry, 'evds_ingest_items_total', { outcome: 'too_large' })).toBe(2);
    expect(await valueOf(registry, 'evds_ingest_items_total', { outcome: 'accepted' })).toBe(1);
  });

  it('keep one series per route template, method and status; unknown methods fold into OTHER', async () => {
    const registry = createRegistry('test');
    const http = createHttpMetrics(registry);
    http.observe('/t/:target_id', 'POST', 202, 0.01);
    http.observe('/t/:target_id', 'POST', 202, 0.02);
    http.observe('/t/:target_id', 'POST', 413, 0.001);
    http.observe('unmatched', 'BREW', 404, 0.001);
    const requests = await series(registry, 'evds_http_requests_total');
    expect(requests.map((v) => [v.labels.route, v.labels.method, v.labels.status, v.value])).toEqual([
      ['/t/:target_id', 'POST', '202', 2],
      ['/t/:target_id', 'POST', '413', 1],
      ['unmatched', 'OTHER', '404', 1],
    ]);
    expect(
      await valueOf(registry, 'evds_http_request_duration_seconds', {
        route: '/t/:target_id',
        status_class: '2xx',
        le: '0.025',
      }),
    ).toBe(2);
  });

  it('count an item ending EXPIRED or FAILED once, however many duplicate attempts saw it', async () => {
    const registry = createRegistry('test');
    const delivery = createDeliveryMetrics(registry);
    delivery.attempt('webhook', 'RETRYING', 0.2, true);
    delivery.retryScheduled('webhook');
    delivery.attempt('webhook', 'EXPIRED', 0.3, true);
    delivery.attempt('webhook', 'EXPIRED', 0.3, false); // a duplicate job: attempt made, item already moved
    delivery.failedWithoutAttempt('a2a');
    delivery.sweeperRequeued(3);
    delivery.sweeperRequeued(0);
    const get = (name: string, labels: Record<string, string>) => valueOf(registry, name, labels);
    expect({
      expiredAttempts: await get('evds_deliveries_total', { kind: 'webhook', outcome: 'EXPIRED' }),
      retrying: await get('evds_deliveries_total', { kind: 'webhook', outcome: 'RETRYING' }),
      retries: await get('evds_delivery_retries_scheduled_total', { kind: 'webhook' }),
      expiredItems: await get('evds_items_undelivered_total', { kind: 'webhook', status: 'EXPIRED' }),
      failedItems: await get('evds_items_undelivered_total', { kind: 'a2a', status: 'FAILED' }),
      requeued: await get('evds_sweeper_requeued_total', {}),
    }).toEqual({ expiredAttempts: 2, retrying: 1, retries: 1, expiredItems: 1, failedItems: 1, requeued: 3 });
  });
});

describe('scrape-time gauges', () => {
  it('read queues once per scrape for both gauges', async () => {
    const registry = createRegistry('test');
    let reads = 0;
    registerQueueGauges(registry, () => {
      reads++;
      return Promise.resolve({
        'webhook-delivery': { waiting: 4, active: 2, delayed: 1, failed: 0, oldestWaitingAgeSeconds: 2.5 },
      });
    });
    const text = await registry.metrics();
    expect(reads).toBe(1);
    expect(text).toContain('evds_queue_jobs{queue="webhook-delivery",state="waiting",service="test"} 4');
    expect(text).toContain(
      'evds_queue_oldest_waiting_age_seconds{queue="webhook-delivery",service="test"} 2.5',
    );
  });

  it('leave the gauges empty and count an error when a reading fails or runs late', async () => {
    const registry = createRegistry('test');
    registerQueueGauges(registry, () => new Promise(() => {}), { timeoutMs: 50 });
    registerMailboxGauges(registry, () => Promise.reject(new Error('database away')));
    const started = Date.now();
    const text = await registry.metrics();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).not.toMatch(/^evds_queue_jobs\{/m);
    expect(text).not.toMatch(/^evds_mailbox_messages\{/m);
    expect(await valueOf(registry, 'evds_metrics_collect_errors_total', { collector: 'queue' })).toBe(1);
    expect(await valueOf(registry, 'evds_metrics_collect_errors_total', { collector: 'mailbox' })).toBe(1);
  });

  it('report the pool as read at scrape time', async () => {
    const registry = createRegistry('test');
    registerPoolGauges(registry, () => ({ total: 7, idle: 2, waiting: 3, max: 10 }));
    const text = await registry.metrics();
    expect(text).toContain('evds_db_pool_connections{state="total",service="test"} 7');
    expect(text).toContain('evds_db_pool_connections{state="idle",service="test"} 2');
    expect(text).toContain('evds_db_pool_waiting_requests{service="test"} 3');
    expect(text).toContain('evds_db_pool_max_connections{service="test"} 10');
  });
});

describe('startMetricsServer', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves /metrics, /health (200 or 503 by the probes) and /live on an ephemeral port', async () => {
    const registry = everything();
    let redisUp = true;
    server = await startMetricsServer(registry, 0, '127.0.0.1', {
      health: () =>
        probeAll({
          postgres: () => Promise.resolve(),
          redis: () => (redisUp ? Promise.resolve() : Promise.reject(new Error('down'))),
        }),
    });
    const base = `http://127.0.0.1:${server.port}`;
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toBe(registry.contentType);
    expect(await metrics.text()).toMatch(/^evds_ingest_items_total\{outcome="accepted",service="test"\} 0$/m);
    expect(await (await fetch(`${base}/health`)).json()).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok' },
    });
    redisUp = false;
    const down = await fetch(`${base}/health`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'down' } });
    expect((await fetch(`${base}/live`)).status).toBe(200);
    expect((await fetch(`${base}/other`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('times a hanging probe out as down', async () => {
    const report = await probeAll({ slow: () => new Promise(() => {}), fast: () => Promise.resolve() }, 50);
    expect(report).toEqual({ ok: false, checks: { slow: 'down', fast: 'ok' } });
  });
});
