// Proves that DATABASE_READ_URL sends the event list, the event detail and the stats to a real
// streaming replica (a private primary and a pg_basebackup hot standby of it, started here) while
// everything else stays on the primary: events written on the primary appear in those reads once
// replicated; with the replica's replay paused, new events stay invisible to them although writes
// (a test event through the API) still succeed, and replaying such an event works because replay
// reads the primary; once replay resumes they appear. An API without DATABASE_READ_URL sees them at
// once. The API's evds_db_replica_lag_seconds reads 0 while the replica keeps up and grows while its
// replay is paused. With the replica stopped, those reads answer 503 in the error shape (never 500) while writes
// keep working and /health stays 200 naming the replica as down; started again, reads come back.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiService, type ApiService } from '@evds/api';
import { loadApiConfig } from '@evds/config';
import { insertItem } from '@evds/db';
import { newId } from '@evds/domain';
import {
  client,
  seedWorkspace,
  spawnService,
  startPgReplicaPair,
  testEnv,
  type Client,
  type PgReplicaPair,
  type ServiceProcess,
  type TestWorkspace,
} from '@evds/testkit';

let pair: PgReplicaPair;
let ws: TestWorkspace;
let targetId: string;
/**
 * The API with the replica runs as its own process, as deployed: in jest's module sandbox a refused
 * connection is an Error of another realm, which the error mapping would not recognise (a 500 seen in
 * tests only). `plain`, in process, has no DATABASE_READ_URL and reads the primary.
 */
let proc: ServiceProcess;
let plainService: ApiService;
let api: Client;
let plain: Client;
let metrics: Client;

/** An event written straight to the primary, as ingestion writes it. */
async function writeEvent(): Promise<string> {
  const id = newId();
  await insertItem(pair.db, {
    id,
    orgId: ws.orgId,
    targetId,
    kind: 'webhook',
    eventType: 'replica.check',
    correlationId: null,
    payload: Buffer.from(`{"id":"${id}"}`),
    requestId: null,
  });
  return id;
}

type List = { events: { id: string }[]; total: number };
type Stats = { events: { total: number } };
const listed = async (c: Client) => {
  const r = await c<List>('/api/v1/events?limit=100', { key: ws.apiKey });
  expect(r.status).toBe(200);
  return r.body;
};
const statsTotal = async (c: Client) => {
  const r = await c<Stats>('/api/v1/stats', { key: ws.apiKey });
  expect(r.status).toBe(200);
  return r.body.events.total;
};
const detailStatus = async (c: Client, id: string) =>
  (await c(`/api/v1/events/${id}`, { key: ws.apiKey })).status;
/** evds_db_replica_lag_seconds as the API's metrics port shows it now. */
const replicaLag = async () => {
  const m = /^evds_db_replica_lag_seconds(?:\{[^}]*\})? (\S+)$/m.exec((await metrics('/metrics')).text);
  return m ? Number(m[1]) : undefined;
};
/** The lag once it reads 0 (a scrape may land while WAL with no transaction is still being replayed). */
const lagSettles = async () => {
  for (let i = 0; i < 20; i++) {
    if ((await replicaLag()) === 0) return 0;
    await new Promise((r) => setTimeout(r, 100));
  }
  return replicaLag();
};

beforeAll(async () => {
  pair = await startPgReplicaPair();
  ws = await seedWorkspace(pair.db);
  const env = testEnv(pair.primaryUrl, { LOG_LEVEL: 'info' });
  proc = await spawnService('api', { ...env, DATABASE_READ_URL: pair.replicaUrl }, 60_000);
  api = client(proc.url);
  metrics = client(proc.metricsUrl);
  plainService = createApiService(loadApiConfig({ ...env, LOG_LEVEL: 'silent' }));
  await plainService.start();
  plain = client(`http://127.0.0.1:${plainService.port()}`);
  const target = await api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'webhook', name: 'hook', url: 'https://127.0.0.1:9/hook' },
  });
  expect(target.status).toBe(201);
  targetId = target.body.target.id;
}, 180_000);

afterAll(async () => {
  await proc?.kill('SIGTERM');
  await plainService?.destroy();
  await pair?.stop();
}, 60_000);

describe('reads on the replica', () => {
  it('shows events written on the primary in the list, the detail and the stats once replicated', async () => {
    const before = await statsTotal(api);
    const id = await writeEvent();
    await pair.caughtUp();
    const list = await listed(api);
    expect(list.events.map((e) => e.id)).toContain(id);
    expect(list.total).toBe(before + 1);
    expect(await detailStatus(api, id)).toBe(200);
    expect(await statsTotal(api)).toBe(before + 1);
  });

  it('reads the replica: with replay paused new events stay unseen while writes and replay (primary) work', async () => {
    await pair.caughtUp();
    expect(await lagSettles()).toBe(0);
    const before = await listed(api);
    const statsBefore = await statsTotal(api);
    await pair.pauseReplay();
    try {
      const written = await writeEvent();
      // The replica has the event's WAL but has not replayed it: its lag is the time since the last
      // transaction it did replay, and grows while it waits.
      let lagged = await replicaLag();
      for (let i = 0; i < 40 && lagged === 0; i++) {
        await new Promise((r) => setTimeout(r, 50)); // until the WAL has streamed over
        lagged = await replicaLag();
      }
      expect(lagged).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 1200));
      expect(await replicaLag()).toBeGreaterThanOrEqual((lagged ?? 0) + 1);
      // A write through the API while the replica lags: the primary takes it.
      const sent = await api<{ id: string }>(`/api/v1/targets/${targetId}/test`, {
        key: ws.apiKey,
        body: {},
      });
      expect(sent.status).toBe(202);
      // Replay reads the event on the primary: the replica does not have it yet.
      const replayed = await api<{ id: string }>(`/api/v1/events/${written}/replay`, {
        key: ws.apiKey,
        method: 'POST',
      });
      expect(replayed.status).toBe(200);
      const fresh = [written, sent.body.id, replayed.body.id];

      const during = await listed(api);
      expect(during.total).toBe(before.total);
      expect(during.events.map((e) => e.id)).toEqual(before.events.map((e) => e.id));
      for (const id of fresh) expect(await detailStatus(api, id)).toBe(404);
      expect(await statsTotal(api)).toBe(statsBefore);

      // The API without a replica reads the primary: it sees them at once.
      const direct = await listed(plain);
      for (const id of fresh) expect(direct.events.map((e) => e.id)).toContain(id);
      expect(direct.total).toBe(before.total + 3);
      expect(await detailStatus(plain, written)).toBe(200);
      expect(await statsTotal(plain)).toBe(statsBefore + 3);

      await pair.resumeReplay();
      await pair.caughtUp();
      expect(await lagSettles()).toBe(0);
      const after = await listed(api);
      for (const id of fresh) expect(after.events.map((e) => e.id)).toContain(id);
      expect(after.total).toBe(before.total + 3);
      for (const id of fresh) expect(await detailStatus(api, id)).toBe(200);
      expect(await statsTotal(api)).toBe(statsBefore + 3);
    } finally {
      await pair.resumeReplay();
    }
  });
});

describe('the replica down', () => {
  it('answers 503 {error, code} on the reads it serves, keeps writes working and stays ready', async () => {
    const id = await writeEvent();
    await pair.caughtUp();
    await pair.replica.stop();
    try {
      for (const path of [
        '/api/v1/events',
        `/api/v1/events/${id}`,
        '/api/v1/stats',
        '/api/v1/stats/timeseries',
      ]) {
        const r = await api<{ error: string; code: string }>(path, { key: ws.apiKey });
        expect([path, r.status]).toEqual([path, 503]);
        expect(r.body).toEqual({ error: expect.any(String), code: 'unavailable' });
        expect(r.headers.get('retry-after')).toBe('5');
      }
      const sent = await api(`/api/v1/targets/${targetId}/test`, { key: ws.apiKey, body: {} });
      expect(sent.status).toBe(202);
      const replayed = await api(`/api/v1/events/${id}/replay`, { key: ws.apiKey, method: 'POST' });
      expect(replayed.status).toBe(200);
      // Everything but the replica's reads works: readiness holds, and names the replica as down.
      const down = { postgres: 'ok', redis: 'ok', postgres_replica: 'down' };
      expect((await api('/health')).body).toEqual({ status: 'ok', checks: down });
      const probe = await metrics('/health');
      expect([probe.status, probe.body]).toEqual([200, { status: 'ok', checks: down }]);
    } finally {
      await pair.replica.start();
    }
    await pair.caughtUp();
    expect(await detailStatus(api, id)).toBe(200);
    const up = await api('/health');
    expect(up.body).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok', postgres_replica: 'ok' },
    });
    expect((await plain('/health')).body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
  }, 60_000);
});
