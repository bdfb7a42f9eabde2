// Proves the HTTP kit on the real API: the six security headers on success, error, 404 and preflight
// answers; CORS only for the configured dashboard origin with the spec's headers; JSON-only bodies
// (415), the body limit (413), malformed or non-UTF-8 JSON (400); and /health naming what is down.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDb } from '@evds/db';
import { createHttpApp, healthHandler, listen } from '@evds/http';
import { createRedis } from '@evds/queue';
import { createLogger } from '@evds/runtime';
import { client, seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { Router } from 'express';
import { sql } from 'kysely';

let api: TestApi;
let ws: TestWorkspace;
const origin = 'https://dashboard.test';

beforeAll(async () => {
  api = await startTestApi({ BODY_LIMIT_BYTES: '4096' });
  ws = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

const securityHeaders = {
  'content-security-policy': "default-src 'none'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

function expectSecurityHeaders(h: Headers): void {
  for (const [name, value] of Object.entries(securityHeaders))
    expect([name, h.get(name)]).toEqual([name, value]);
}

describe('security headers', () => {
  it.each([
    ['a success', '/health', {}, 200],
    ['an error', '/api/v1/orgs', {}, 401],
    ['an unknown route', '/nope', {}, 404],
    [
      'a bad body',
      '/api/v1/keys',
      { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } },
      401,
    ],
  ])('are on %s', async (_n, path, init, status) => {
    const res = await fetch(api.baseUrl + path, init);
    expect(res.status).toBe(status);
    expectSecurityHeaders(res.headers);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('are on a preflight', async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/keys`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expectSecurityHeaders(res.headers);
  });

  it('404 answers have the error body', async () => {
    const r = await api.request('/api/v2/whatever');
    expect(r.body).toEqual({ error: 'route not found', code: 'not_found' });
  });
});

describe('CORS', () => {
  it('lets the dashboard origin preflight with every allowed header', async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/keys`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
    for (const h of [
      'authorization',
      'x-session-token',
      'content-type',
      'x-requested-with',
      'x-event-type',
      'x-correlation-id',
      'idempotency-key',
    ])
      expect(allowed).toContain(h);
  });

  it('marks actual responses for the dashboard origin, errors included', async () => {
    const ok = await fetch(`${api.baseUrl}/api/v1/orgs`, {
      headers: { origin, authorization: `Bearer ${ws.apiKey}` },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    const err = await fetch(`${api.baseUrl}/api/v1/orgs`, { headers: { origin } });
    expect(err.status).toBe(401);
    expect(err.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('gives any other origin no CORS grant', async () => {
    const pre = await fetch(`${api.baseUrl}/api/v1/keys`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${api.baseUrl}/api/v1/orgs`, {
      headers: { origin: 'https://evil.test', authorization: `Bearer ${ws.apiKey}` },
    });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('bodies', () => {
  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
  ])('refuses %s with 415', async (type) => {
    const r = await api.request('/api/v1/keys', {
      key: ws.apiKey,
      body: 'name=x',
      headers: { 'content-type': type },
    });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({
      error: 'request body must be application/json',
      code: 'unsupported_media_type',
    });
  });

  it('refuses a body with no content type with 415', async () => {
    const res = await fetch(`${api.baseUrl}/api/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.apiKey}` },
      body: new Blob([Buffer.from('{"name":"x"}')]),
    });
    expect(res.status).toBe(415);
  });

  it('accepts application/json with a charset', async () => {
    const r = await api.request('/api/v1/orgs', {
      method: 'PATCH',
      key: ws.apiKey,
      body: '{"name":"ok"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(200);
  });

  it('refuses a body over the limit with 413', async () => {
    const r = await api.request('/api/v1/orgs', {
      method: 'PATCH',
      key: ws.apiKey,
      body: { name: 'x'.repeat(5000) },
    });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
  });

  it.each([
    ['truncated JSON', Buffer.from('{"name": "x"')],
    ['trailing garbage', Buffer.from('{"name": "x"} x')],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ['deep nesting', Buffer.from('['.repeat(2000) + ']'.repeat(2000))],
    ['a bare string', Buffer.from('"name"')],
  ])('refuses %s with 400, never 500', async (_n, body) => {
    const r = await api.request('/api/v1/orgs', { method: 'PATCH', key: ws.apiKey, body });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
  });

  it('a __proto__ key is just an unknown field', async () => {
    const r = await api.request('/api/v1/orgs', {
      method: 'PATCH',
      key: ws.apiKey,
      body: '{"name":"p","__proto__":{"admin":true}}',
    });
    expect(r.status).toBe(400);
  });
});

describe('/health', () => {
  it('reports both backing services', async () => {
    const r = await api.request('/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
  });

  /** /health of an app whose Postgres and Redis are the given URLs, answered over real HTTP. */
  async function healthWith(databaseUrl: string, redisUrl: string) {
    const db = createDb({ url: databaseUrl, poolSize: 1 });
    const redis = createRedis(redisUrl, { role: 'client' });
    const router = Router();
    router.get(
      '/health',
      healthHandler({ postgres: () => sql`select 1`.execute(db), redis: () => redis.ping() }),
    );
    const app = createHttpApp({
      logger: createLogger({ level: 'silent', name: 't' }),
      dashboardOrigin: '',
      trustProxy: [],
      routes: router,
    });
    const srv = await listen(app, 0, '127.0.0.1');
    try {
      return await client(`http://127.0.0.1:${srv.port}`)('/health');
    } finally {
      await srv.close();
      redis.disconnect();
      await db.destroy();
    }
  }

  it('answers 503 naming Redis when Redis is unreachable', async () => {
    const r = await healthWith(api.database.url, 'redis://127.0.0.1:1');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'redis unavailable', checks: { postgres: 'ok', redis: 'down' } });
    expectSecurityHeaders(r.headers);
  });

  it('answers 503 naming Postgres when Postgres is unreachable', async () => {
    const r = await healthWith('postgres://postgres@127.0.0.1:1/none', api.env.REDIS_URL ?? '');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({
      error: 'postgres unavailable',
      checks: { postgres: 'down', redis: 'ok' },
    });
  });
});
