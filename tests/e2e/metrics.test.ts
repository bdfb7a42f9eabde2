// Proves the operator's view of a running stack: each of the four services, run as its own process,
// serves Prometheus metrics on a port of its own, and the counters there move exactly with the traffic
// this file sends (items accepted and refused by reason, HTTP requests by route template, deliveries
// by outcome with their latency, retries, expiry, failures, the sweeper's re-enqueues), while the
// gauges read at scrape time (queue depth and age, mailbox backlog, auto-disabled targets, Postgres
// pool) show the state of the moment. It also proves the log trail: the request id given to ingest is
// on the delivery worker's attempt line, every line is JSON at the configured level, and no secret is
// ever written.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { insertItems } from '@evds/db';
import { newId } from '@evds/domain';
import {
  seedWorkspace,
  type Receiver,
  type ServiceProcess,
  type Stack,
  type TestWorkspace,
  startStackWithReceiver,
} from '@evds/testkit';
import { createWebhookTarget, pollUntil, waitForStatus } from './helpers.ts';

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    behaviour: (r) =>
      r.path.startsWith('/fail')
        ? { status: 500 }
        : r.path.startsWith('/slow')
          ? { status: 200, delayMs: 1500 }
          : { status: 200 },
    services: ['api', 'ingest', 'delivery-worker', 'a2a-worker'],
    // Two deliveries at a time, so a burst to the slow path leaves jobs waiting in the queue.
    env: { LOG_LEVEL: 'debug', INGEST_RATE_LIMIT: '1000', DELIVERY_CONCURRENCY: '2' },
  }));
  ws = await seedWorkspace(stack.db);
}, 60_000);
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const proc = (name: Parameters<Stack['start']>[0]): ServiceProcess => {
  const p = stack.processes.get(name);
  if (!p) throw new Error(`${name} is not running`);
  return p;
};

/** One scrape: every sample as its name, its labels and its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

async function scrape(name: Parameters<Stack['start']>[0]): Promise<Sample[]> {
  const res = await fetch(`${proc(name).metricsUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const samples: Sample[] = [];
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample: ${line}`);
    const labels = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
    );
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels` (undefined when there is none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const hits = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return hits.length === 0 ? undefined : hits.reduce((sum, s) => sum + s.value, 0);
}

const delta = (before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}) =>
  (value(after, name, labels) ?? 0) - (value(before, name, labels) ?? 0);

/** Scrapes until `check` holds for the delta against `before` (counters move just after the commit). */
async function untilDelta(
  service: Parameters<Stack['start']>[0],
  before: Sample[],
  name: string,
  labels: Record<string, string>,
  expected: number,
): Promise<Sample[]> {
  let last: Sample[] = before;
  try {
    return await pollUntil(
      `${name}${JSON.stringify(labels)} +${expected} on ${service}`,
      async () => {
        last = await scrape(service);
        return delta(before, last, name, labels) >= expected ? last : undefined;
      },
      20_000,
    );
  } finally {
    // Never more than expected, either.
    expect({ name, labels, delta: delta(before, last, name, labels) }).toEqual({
      name,
      labels,
      delta: expected,
    });
  }
}

const ingest = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  stack.ingest<{ id: string }>(path, { key: ws.apiKey, body, headers });

describe('every service', () => {
  it.each(['api', 'ingest', 'delivery-worker', 'a2a-worker'] as const)(
    '%s serves /metrics, /health and /live on its own metrics port',
    async (name) => {
      const p = proc(name);
      expect(p.metricsPort).toBeGreaterThan(0);
      expect(p.metricsPort).not.toBe(p.port);
      const samples = await scrape(name);
      // Process defaults, labelled with the service.
      expect(value(samples, 'process_cpu_user_seconds_total', { service: name })).toBeGreaterThan(0);
      expect(value(samples, 'nodejs_eventloop_lag_seconds')).toBeDefined();
      // Pool saturation: DB_POOL_SIZE (5 under test) and 3 for named statements; nothing waits at rest.
      expect(value(samples, 'evds_db_pool_max_connections')).toBe(8);
      expect(value(samples, 'evds_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(0);
      expect(value(samples, 'evds_db_pool_waiting_requests')).toBe(0);

      const health = await fetch(`${p.metricsUrl}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
      expect((await fetch(`${p.metricsUrl}/live`)).status).toBe(200);
      expect((await fetch(`${p.metricsUrl}/nope`)).status).toBe(404);
      // The public port does not serve metrics.
      if (p.port) expect((await fetch(`${p.url}/metrics`)).status).toBe(404);
    },
  );
});

describe('ingest and delivery counters', () => {
  it('count accepted and refused items by reason, requests by route template, deliveries by outcome', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok`);
    const [ingestBefore, workerBefore] = await Promise.all([scrape('ingest'), scrape('delivery-worker')]);

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await ingest(`/t/${target.id}`, { i });
      expect(r.status).toBe(202);
      ids.push(r.body.id);
    }
    for (let i = 0; i < 2; i++) expect((await ingest(`/e/${target.id}`, { e: i })).status).toBe(202);
    // Over the target's max_payload_bytes (262144) but under the service's body limit.
    for (let i = 0; i < 3; i++)
      expect((await ingest(`/t/${target.id}`, { big: 'x'.repeat(270_000) })).status).toBe(413);
    for (let i = 0; i < 4; i++) expect((await ingest(`/t/${newId()}`, { i })).status).toBe(404);
    // Refused before the ingest rules (no credential): an HTTP request, not an item.
    expect((await stack.ingest(`/t/${target.id}`, { body: { a: 1 } })).status).toBe(401);

    const after = await scrape('ingest');
    const items = (outcome: string) => delta(ingestBefore, after, 'evds_ingest_items_total', { outcome });
    expect({
      accepted: items('accepted'),
      too_large: items('too_large'),
      not_found: items('not_found'),
      duplicate: items('duplicate'),
      invalid: items('invalid'),
    }).toEqual({ accepted: 7, too_large: 3, not_found: 4, duplicate: 0, invalid: 0 });

    const requests = (route: string, status: string) =>
      delta(ingestBefore, after, 'evds_http_requests_total', { route, method: 'POST', status });
    expect({
      t202: requests('/t/:target_id', '202'),
      e202: requests('/e/:endpoint_id', '202'),
      t413: requests('/t/:target_id', '413'),
      t404: requests('/t/:target_id', '404'),
      t401: requests('/t/:target_id', '401'),
    }).toEqual({ t202: 5, e202: 2, t413: 3, t404: 4, t401: 1 });
    expect(
      delta(ingestBefore, after, 'evds_http_request_duration_seconds_count', {
        route: '/t/:target_id',
        status_class: '2xx',
      }),
    ).toBe(5);
    // Templates, never raw URLs: no label anywhere carries an id.
    expect(after.filter((s) => Object.values(s.labels).some((v) => /[0-9a-f]{32}/.test(v)))).toEqual([]);

    for (const id of ids) await waitForStatus(stack, ws, id, 'DELIVERED');
    const worker = await untilDelta(
      'delivery-worker',
      workerBefore,
      'evds_deliveries_total',
      { kind: 'webhook', outcome: 'DELIVERED' },
      7,
    );
    expect(
      delta(workerBefore, worker, 'evds_delivery_attempt_duration_seconds_count', {
        kind: 'webhook',
        outcome: 'DELIVERED',
      }),
    ).toBe(7);
    expect(delta(workerBefore, worker, 'evds_deliveries_total', { outcome: 'RETRYING' })).toBe(0);
  });

  it('count every retry and the expiry of an item its receiver always refuses', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/fail`);
    const before = await scrape('delivery-worker');
    const r = await ingest(`/t/${target.id}`, { doomed: true });
    await waitForStatus(stack, ws, r.body.id, 'EXPIRED');
    // Five retries (max_retries), then the sixth failure expires the item.
    const after = await untilDelta(
      'delivery-worker',
      before,
      'evds_items_undelivered_total',
      { kind: 'webhook', status: 'EXPIRED' },
      1,
    );
    const deliveries = (outcome: string) =>
      delta(before, after, 'evds_deliveries_total', { kind: 'webhook', outcome });
    expect({
      retrying: deliveries('RETRYING'),
      expired: deliveries('EXPIRED'),
      delivered: deliveries('DELIVERED'),
      retries: delta(before, after, 'evds_delivery_retries_scheduled_total', { kind: 'webhook' }),
    }).toEqual({ retrying: 5, expired: 1, delivered: 0, retries: 5 });
  });

  it('count the sweeper re-enqueueing an item that has no job, and its failure without an attempt', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok`);
    await stack.api(`/api/v1/targets/${target.id}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { enabled: false },
    });
    const before = await scrape('delivery-worker');
    // Committed without an enqueue, as after a crash between the two: only the sweeper can find it.
    const id = newId();
    await insertItems(stack.db, [
      {
        id,
        orgId: ws.orgId,
        targetId: target.id,
        kind: 'webhook',
        eventType: null,
        correlationId: null,
        payload: Buffer.from('{"orphan":true}'),
        requestId: null,
      },
    ]);
    await waitForStatus(stack, ws, id, 'FAILED');
    const after = await untilDelta(
      'delivery-worker',
      before,
      'evds_items_undelivered_total',
      { kind: 'webhook', status: 'FAILED' },
      1,
    );
    expect(delta(before, after, 'evds_sweeper_requeued_total')).toBe(1);
    expect(delta(before, after, 'evds_deliveries_total', { kind: 'webhook' })).toBe(0);
  });
});

describe('scrape-time gauges', () => {
  it('show waiting jobs and the age of the oldest while the workers are busy, then none', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/slow`);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await ingest(`/t/${target.id}`, { i })).body.id);
    const queue = { queue: 'webhook-delivery' };
    // Two in flight (DELIVERY_CONCURRENCY), four waiting for about 1.5 s.
    const busy = await pollUntil('4 waiting webhook jobs', async () => {
      const s = await scrape('delivery-worker');
      return value(s, 'evds_queue_jobs', { ...queue, state: 'waiting' }) === 4 ? s : undefined;
    });
    expect(value(busy, 'evds_queue_jobs', { ...queue, state: 'active' })).toBe(2);
    const age = value(busy, 'evds_queue_oldest_waiting_age_seconds', queue) ?? -1;
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(10);
    for (const id of ids) await waitForStatus(stack, ws, id, 'DELIVERED');
    const idle = await pollUntil('an empty webhook queue', async () => {
      const s = await scrape('delivery-worker');
      return value(s, 'evds_queue_jobs', { ...queue, state: 'active' }) === 0 ? s : undefined;
    });
    expect(value(idle, 'evds_queue_jobs', { ...queue, state: 'waiting' })).toBe(0);
    expect(value(idle, 'evds_queue_oldest_waiting_age_seconds', queue)).toBe(0);
    // Each worker reports its own queues.
    const a2a = await scrape('a2a-worker');
    expect(value(a2a, 'evds_queue_jobs', { queue: 'a2a-delivery', state: 'waiting' })).toBe(0);
    expect(value(a2a, 'evds_queue_jobs', queue)).toBeUndefined();
  });

  it('show the mailbox backlog on the api, and count api requests by route template', async () => {
    const before = await scrape('api');
    const r = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'mailbox', name: 'inbox' },
    });
    expect(r.status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await ingest(`/t/${r.body.target.id}`, { m: i })).status).toBe(202);
    // The count is reused for up to 10 s between scrapes.
    await pollUntil(
      '3 UNREAD mailbox messages',
      async () =>
        value(await scrape('api'), 'evds_mailbox_messages', { state: 'UNREAD' }) === 3 ? true : undefined,
      20_000,
    );
    const after = await scrape('api');
    expect(value(after, 'evds_mailbox_messages', { state: 'CLAIMED' })).toBe(0);
    expect(
      delta(before, after, 'evds_http_requests_total', {
        route: '/api/v1/targets',
        method: 'POST',
        status: '201',
      }),
    ).toBe(1);
  });
});

describe('the auto-disabled targets gauge', () => {
  it('counts, on the api, live targets the service disabled itself', async () => {
    expect(value(await scrape('api'), 'evds_targets_auto_disabled')).toBe(0);
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok`);
    // What auto-disable leaves (its run and the task are proven in tests/api/target-auto-disable.test.ts).
    await stack.db
      .updateTable('targets')
      .set({
        enabled: false,
        disabled_reason: 'auto-disabled: every attempt failed since 2026-11-19T10:00:00.000Z',
      })
      .where('id', '=', target.id)
      .execute();
    // The count is reused for up to 10 s between scrapes.
    await pollUntil(
      '1 auto-disabled target',
      async () => (value(await scrape('api'), 'evds_targets_auto_disabled') === 1 ? true : undefined),
      20_000,
    );
  });
});

describe('logs', () => {
  it('carry the request id from ingest to the delivery attempt, as JSON at the configured level', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok`);
    const requestId = `trace-${randomBytes(6).toString('hex')}`;
    const r = await ingest(`/t/${target.id}`, { traced: true }, { 'x-request-id': requestId });
    expect(r.headers.get('x-request-id')).toBe(requestId);
    const row = await stack.db
      .selectFrom('events')
      .select('request_id')
      .where('id', '=', r.body.id)
      .executeTakeFirstOrThrow();
    expect(row.request_id).toBe(requestId);
    await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
    const attempt = await pollUntil('the attempt log line', () =>
      proc('delivery-worker').logs.find((l) => l.msg === 'delivery attempt' && l.eventId === r.body.id),
    );
    expect(attempt).toMatchObject({ requestId, outcome: 'DELIVERED', service: 'delivery-worker' });
    // The ingest request line has the same id.
    expect(proc('ingest').logs.some((l) => (l.req as { id?: string } | undefined)?.id === requestId)).toBe(
      true,
    );

    for (const p of stack.processes.values()) {
      const lines = p.output.join('').split('\n').filter(Boolean);
      const notJson = lines.filter((l) => {
        try {
          JSON.parse(l);
          return false;
        } catch {
          return true;
        }
      });
      expect({ service: p.name, notJson }).toEqual({ service: p.name, notJson: [] });
      const parsed = lines.map((l) => JSON.parse(l) as { level: number; service: string });
      expect(parsed.filter((l) => l.service !== p.name || typeof l.level !== 'number')).toEqual([]);
      // LOG_LEVEL=debug: nothing below debug (trace, 10) is written.
      expect(parsed.filter((l) => l.level < 20)).toEqual([]);
    }
    // ...and debug lines are: a successful attempt and a 2xx request are logged at debug.
    expect(attempt.level).toBe(20);
  });

  it('never contain a secret: API keys, signing secrets, encryption keys, the database URL', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok`);
    const r = await ingest(`/t/${target.id}`, { secretive: true });
    await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
    const keyMaterial = (stack.env.ENCRYPTION_KEYS ?? '').split(':')[1] ?? '';
    expect(keyMaterial.length).toBeGreaterThan(20);
    const secrets = [
      ws.apiKey,
      target.secret,
      target.secret.replace(/^whsec_/, ''),
      keyMaterial,
      stack.env.DATABASE_URL ?? '-',
    ];
    for (const p of stack.processes.values()) {
      const out = p.output.join('');
      for (const s of secrets)
        expect({ service: p.name, leaked: out.includes(s) }).toEqual({ service: p.name, leaked: false });
    }
  });
});
