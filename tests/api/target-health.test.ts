// Proves target health over real HTTP against the API on its own database and Redis prefix: a new
// target reads `unknown` with a closed circuit; a target whose row says it is failing (set here in
// Postgres) and whose circuit is open (a hash set here in Redis, in the flow control's key layout)
// shows both, in the list and alone, in the unified and the legacy endpoint shapes, with the reason it
// was auto-disabled; re-enabling it (on either route family) clears the reason and the failing run and
// closes the circuit in Redis, while disabling by hand sets no reason; other organizations' targets
// answer 404 and their circuits stay untouched. (A circuit Redis cannot read: packages/targets/src/health.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { flowKeys, openCircuitsKey } from '@evds/flow';
import { createRedis } from '@evds/queue';
import { seedWorkspace, startTestApi, testRedisUrl, type TestApi, type TestWorkspace } from '@evds/testkit';

let api: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
const redis = createRedis(testRedisUrl(), { role: 'client' });

beforeAll(async () => {
  api = await startTestApi();
  ws = await seedWorkspace(api.database.db);
  other = await seedWorkspace(api.database.db);
});
afterAll(async () => {
  await api.stop();
  redis.disconnect();
});

interface Health {
  status: string;
  failing_since: number | null;
  last_success_at: number | null;
  last_failure_at: number | null;
  consecutive_failures: number;
  circuit: string | null;
  next_probe_at: number | null;
}
interface Target {
  id: string;
  enabled: boolean;
  disabled_reason: string | null;
  health: Health;
}

const prefix = () => api.env.REDIS_PREFIX ?? '';
const failingSince = new Date('2026-11-19T10:00:00.000Z');
const lastSuccess = new Date('2026-11-19T09:59:30.000Z');
const lastFailure = new Date('2026-11-24T10:00:00.000Z');
const probeAt = new Date('2026-11-24T10:05:00.000Z');
const reason = 'auto-disabled: every attempt failed since 2026-11-19T10:00:00.000Z';
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

async function newWebhook(key: string): Promise<string> {
  const r = await api.request<{ target: Target }>('/api/v1/targets', {
    key,
    body: { kind: 'webhook', name: 'hook', url: 'https://93.184.215.14/hook' },
  });
  expect(r.status).toBe(201);
  return r.body.target.id;
}

/** What auto-disable leaves behind: the row failing and disabled with a reason, the circuit open. */
async function makeFailing(orgId: string, id: string) {
  await api.database.db
    .updateTable('targets')
    .set({
      enabled: false,
      disabled_reason: reason,
      failing_since: failingSince,
      last_success_at: lastSuccess,
      last_failure_at: lastFailure,
      consecutive_failures: 42,
    })
    .where('id', '=', id)
    .execute();
  const ref = { orgId, targetId: id };
  await redis.hset(flowKeys(prefix(), ref).circuit, {
    state: 'open',
    failures: '42',
    opened_at: String(lastFailure.getTime()),
    probe_at: String(probeAt.getTime()),
    last_failure: String(lastFailure.getTime()),
  });
  await redis.zadd(openCircuitsKey(prefix()), lastFailure.getTime(), id);
}

const failingHealth: Health = {
  status: 'failing',
  failing_since: unix(failingSince),
  last_success_at: unix(lastSuccess),
  last_failure_at: unix(lastFailure),
  consecutive_failures: 42,
  circuit: 'open',
  next_probe_at: unix(probeAt),
};

const getTarget = (key: string, id: string) =>
  api.request<{ target: Target; code?: string }>(`/api/v1/targets/${id}`, { key });
const getEndpoint = (key: string, id: string) =>
  api.request<{ endpoint: Target; code?: string }>(`/api/v1/endpoints/${id}`, { key });
const circuitExists = async (orgId: string, id: string) =>
  (await redis.exists(flowKeys(prefix(), { orgId, targetId: id }).circuit)) === 1 &&
  (await redis.zscore(openCircuitsKey(prefix()), id)) !== null;

describe('target health', () => {
  it('is unknown with a closed circuit for a new target', async () => {
    const id = await newWebhook(ws.apiKey);
    const r = await getTarget(ws.apiKey, id);
    expect(r.body.target).toMatchObject({
      disabled_reason: null,
      health: {
        status: 'unknown',
        failing_since: null,
        last_success_at: null,
        last_failure_at: null,
        consecutive_failures: 0,
        circuit: 'closed',
        next_probe_at: null,
      },
    });
  });

  it('shows a failing, auto-disabled target with its open circuit in every shape', async () => {
    const id = await newWebhook(ws.apiKey);
    const healthy = await newWebhook(ws.apiKey);
    await api.database.db
      .updateTable('targets')
      .set({ last_success_at: lastSuccess })
      .where('id', '=', healthy)
      .execute();
    await makeFailing(ws.orgId, id);

    const expected = { id, enabled: false, disabled_reason: reason, health: failingHealth };
    expect((await getTarget(ws.apiKey, id)).body.target).toMatchObject(expected);
    expect((await getEndpoint(ws.apiKey, id)).body.endpoint).toMatchObject(expected);
    const targets = await api.request<{ targets: Target[] }>('/api/v1/targets', { key: ws.apiKey });
    expect(targets.body.targets.find((t) => t.id === id)).toMatchObject(expected);
    expect(targets.body.targets.find((t) => t.id === healthy)?.health).toMatchObject({
      status: 'healthy',
      last_success_at: unix(lastSuccess),
      circuit: 'closed',
    });
    const endpoints = await api.request<{ endpoints: Target[] }>('/api/v1/endpoints', { key: ws.apiKey });
    expect(endpoints.body.endpoints.find((t) => t.id === id)).toMatchObject(expected);
  });

  it('is cleared by re-enabling, which closes the circuit; disabling by hand sets no reason', async () => {
    const id = await newWebhook(ws.apiKey);
    await makeFailing(ws.orgId, id);
    const r = await api.request<{ target: Target }>(`/api/v1/targets/${id}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { enabled: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.target).toMatchObject({
      enabled: true,
      disabled_reason: null,
      health: {
        status: 'healthy',
        failing_since: null,
        consecutive_failures: 0,
        last_success_at: unix(lastSuccess),
        last_failure_at: unix(lastFailure),
        circuit: 'closed',
        next_probe_at: null,
      },
    });
    expect(await circuitExists(ws.orgId, id)).toBe(false);

    const off = await api.request<{ target: Target }>(`/api/v1/targets/${id}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { enabled: false },
    });
    expect(off.body.target).toMatchObject({ enabled: false, disabled_reason: null });
  });

  it('is cleared by re-enabling a legacy endpoint too', async () => {
    const id = await newWebhook(ws.apiKey);
    await makeFailing(ws.orgId, id);
    const r = await api.request<{ endpoint: { enabled: boolean } }>(`/api/v1/endpoints/${id}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { enabled: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.endpoint.enabled).toBe(true);
    expect((await getEndpoint(ws.apiKey, id)).body.endpoint).toMatchObject({
      disabled_reason: null,
      health: { status: 'healthy', failing_since: null, consecutive_failures: 0, circuit: 'closed' },
    });
    expect(await circuitExists(ws.orgId, id)).toBe(false);
  });

  it("answers 404 for another organization's target and leaves its circuit alone", async () => {
    const theirs = await newWebhook(other.apiKey);
    await makeFailing(other.orgId, theirs);
    expect((await getTarget(ws.apiKey, theirs)).status).toBe(404);
    expect((await getEndpoint(ws.apiKey, theirs)).status).toBe(404);
    for (const path of [`/api/v1/targets/${theirs}`, `/api/v1/endpoints/${theirs}`]) {
      const r = await api.request(path, { method: 'PATCH', key: ws.apiKey, body: { enabled: true } });
      expect(r.status).toBe(404);
    }
    const mine = await api.request<{ targets: Target[] }>('/api/v1/targets', { key: ws.apiKey });
    expect(mine.body.targets.map((t) => t.id)).not.toContain(theirs);
    expect(await circuitExists(other.orgId, theirs)).toBe(true);
    expect((await getTarget(other.apiKey, theirs)).body.target).toMatchObject({
      enabled: false,
      disabled_reason: reason,
      health: failingHealth,
    });
  });
});
