// Proves the per-address limit on failed authentication (AUTH_FAILURE_LIMIT=5 per 60 s), over real
// HTTP with real Postgres and Redis: on the API and on ingest, an address's first 5 failures answer
// 401 and from the 6th on every request from it answers 429 with Retry-After and the contract's body,
// a valid key included, while other addresses and public routes are untouched; requests that
// authenticate are not counted (10 accepted items, then still 5 failures before the cut). With the
// credential lookups counted, a blocked address costs none; and when Redis cannot answer, failures
// go uncounted and requests through (the limit is a policy), never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createAuthFailureLimit,
  createHttpApp,
  dbCredentialStore,
  defineRoute,
  listen,
  mountRoutes,
  type CredentialStore,
  type RunningServer,
} from '@evds/http';
import { createRedis, type Redis } from '@evds/queue';
import { createLogger } from '@evds/runtime';
import {
  seedWorkspace,
  startTestApi,
  startTestIngest,
  testRedisPrefix,
  type Client,
  type TestApi,
  type TestIngest,
  type TestWorkspace,
} from '@evds/testkit';
import { Router } from 'express';

const LIMIT = 5;
const unknownKey = `evds_sk_${'0'.repeat(64)}`;
const blockedBody = {
  error: 'too many failed authentication attempts from this address, retry later',
  code: 'rate_limited',
};
let api: TestApi;
let ingestService: TestIngest;
let ingest: Client;
let ws: TestWorkspace;
let mailbox: string;

beforeAll(async () => {
  api = await startTestApi({
    TRUST_PROXY: 'loopback',
    AUTH_FAILURE_LIMIT: String(LIMIT),
    AUTH_FAILURE_WINDOW_SECONDS: '60',
  });
  ingestService = await startTestIngest(api.env);
  ingest = ingestService.request;
  ws = await seedWorkspace(api.database.db);
  const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'm' },
  });
  mailbox = r.body.target.id;
});
afterAll(async () => {
  await ingestService?.stop();
  await api?.stop();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** Statuses of `n` calls, one after the other. */
async function statuses(n: number, call: () => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call()).status);
  return out;
}

describe('the API', () => {
  it('answers 429 from the 6th failure on, to every request of that address only', async () => {
    const ip = '203.0.113.10';
    const bad = () => api.request('/api/v1/orgs', { key: unknownKey, headers: from(ip) });
    expect(await statuses(LIMIT, bad)).toEqual(Array(LIMIT).fill(401));

    const cut = await bad();
    expect([cut.status, cut.body]).toEqual([429, blockedBody]);
    const wait = Number(cut.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);

    const good = await api.request('/api/v1/orgs', { key: ws.apiKey, headers: from(ip) });
    expect([good.status, good.body]).toEqual([429, blockedBody]);
    const session = await api.request('/api/v1/auth/me', { session: 'a'.repeat(64), headers: from(ip) });
    expect(session.status).toBe(429);
    expect(
      (await api.request('/api/v1/orgs', { key: ws.apiKey, headers: from('203.0.113.11') })).status,
    ).toBe(200);
    expect((await api.request('/api/v1/openapi.json', { headers: from(ip) })).status).toBe(200);
  });
});

describe('IPv6 callers', () => {
  it('are counted per /64: rotating addresses inside one block does not escape, another block is untouched', async () => {
    const bad = (ip: string) => () => api.request('/api/v1/orgs', { key: unknownKey, headers: from(ip) });
    const inBlock = Array.from({ length: LIMIT }, (_, i) => `2001:db8:5:6::${(i + 1).toString(16)}`);
    for (const ip of inBlock) expect((await bad(ip)()).status).toBe(401);
    const cut = await bad('2001:db8:5:6:ffff::1')();
    expect([cut.status, cut.body]).toEqual([429, blockedBody]);
    expect(
      (await api.request('/api/v1/orgs', { key: ws.apiKey, headers: from('2001:db8:5:7::1') })).status,
    ).toBe(200);
  });
});

describe('ingest', () => {
  it('counts only failures, then answers 429 to the address, a valid key included', async () => {
    const ip = '198.51.100.20';
    const item = (key: string) => () => ingest(`/t/${mailbox}`, { key, body: { a: 1 }, headers: from(ip) });
    expect(await statuses(10, item(ws.apiKey))).toEqual(Array(10).fill(202));
    expect(await statuses(LIMIT, item(unknownKey))).toEqual(Array(LIMIT).fill(401));
    const cut = await item(unknownKey)();
    expect([cut.status, cut.body]).toEqual([429, blockedBody]);
    expect(Number(cut.headers.get('retry-after'))).toBeGreaterThan(0);
    const good = await item(ws.apiKey)();
    expect([good.status, good.body]).toEqual([429, blockedBody]);
    expect(
      (await ingest(`/t/${mailbox}`, { key: ws.apiKey, body: { a: 1 }, headers: from('198.51.100.21') }))
        .status,
    ).toBe(202);
  });
});

describe('the guard in front of the credential store', () => {
  const logger = createLogger({ level: 'silent', name: 'auth-failures-test' });
  const servers: RunningServer[] = [];
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const c of clients) c.disconnect();
  });

  /** A guarded route on a real server, in front of the real store whose key lookups are counted. */
  async function probe(
    redisUrl: string,
  ): Promise<{ call: (key: string) => Promise<Response>; lookups: () => number }> {
    const redis = createRedis(redisUrl, { role: 'client', name: 'auth-failures-test' });
    clients.push(redis);
    const real = dbCredentialStore(api.database.db);
    let lookups = 0;
    const store: CredentialStore = {
      apiKey: (hash) => {
        lookups++;
        return real.apiKey(hash);
      },
      session: (hash) => real.session(hash),
    };
    const route = defineRoute({
      method: 'get',
      path: '/probe',
      auth: 'K',
      tag: 'test',
      summary: 'probe',
      responses: { 200: { description: 'authenticated' } },
      handler: () => Promise.resolve({ body: { ok: true } }),
    });
    const router = Router();
    router.use(
      mountRoutes([route], {
        credentials: store,
        bodyLimitBytes: 1024,
        authFailures: createAuthFailureLimit(redis, {
          prefix: testRedisPrefix(),
          limit: 3,
          windowSeconds: 60,
          logger,
        }),
      }),
    );
    const server = await listen(
      createHttpApp({ logger, dashboardOrigin: '', trustProxy: [], routes: router }),
      0,
      '127.0.0.1',
    );
    servers.push(server);
    const call = async (key: string) => {
      const res = await fetch(`http://127.0.0.1:${server.port}/probe`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await res.text();
      return res;
    };
    return { call, lookups: () => lookups };
  }

  it('looks no credential up for a blocked address', async () => {
    const p = await probe(api.env.REDIS_URL ?? '');
    expect(await statuses(3, () => p.call(unknownKey))).toEqual([401, 401, 401]);
    expect((await p.call(unknownKey)).status).toBe(429);
    expect(p.lookups()).toBe(4);
    expect(await statuses(10, () => p.call(ws.apiKey))).toEqual(Array(10).fill(429));
    expect(p.lookups()).toBe(4);
  });

  it('lets requests through, uncounted, when Redis cannot answer', async () => {
    // Nothing listens on the discard port: every Redis command fails.
    const p = await probe('redis://127.0.0.1:9');
    expect(await statuses(4, () => p.call(unknownKey))).toEqual(Array(4).fill(401));
    expect((await p.call(ws.apiKey)).status).toBe(200);
  }, 60_000);
});
