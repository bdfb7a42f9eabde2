// Proves the per-credential rate limit of the management API (API_RATE_LIMIT=5 per 60 s) over real
// HTTP: each API key and each session has its own window; past it, reads and writes alike answer 429
// with the contract's {error, code: 'rate_limited'} and a Retry-After, and a refused write changes
// nothing; another key or a session of the same workspace still gets through, and public routes are
// not counted. When Redis cannot answer, requests go through (the limit is a policy), never a 5xx.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  createHttpApp,
  createRateLimiter,
  dbCredentialStore,
  defineRoute,
  listen,
  mountRoutes,
  perCredentialLimit,
  type RunningServer,
} from '@evds/http';
import { createRedis, type Redis } from '@evds/queue';
import { createLogger } from '@evds/runtime';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { Router } from 'express';

const LIMIT = 5;
let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi({ API_RATE_LIMIT: String(LIMIT), API_RATE_WINDOW_SECONDS: '60' });
  ws = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

async function statuses(n: number, call: () => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call()).status);
  return out;
}

it('gives every credential its own window and answers 429 past it, reads and writes alike', async () => {
  // Public routes (login included) are not counted.
  const login = await api.request<{ session_token: string }>('/api/v1/auth/login', {
    body: { email: ws.email, password: ws.password },
  });
  expect(await statuses(2 * LIMIT, () => api.request('/api/v1/openapi.json'))).toEqual(
    Array(2 * LIMIT).fill(200),
  );
  const second = await api.request<{ key: string }>('/api/v1/keys', { key: ws.apiKey, body: { name: 'b' } });
  expect(second.status).toBe(201);

  // The key's first request was that creation: LIMIT - 1 more fit in its window.
  expect(await statuses(LIMIT - 1, () => api.request('/api/v1/orgs', { key: ws.apiKey }))).toEqual(
    Array(LIMIT - 1).fill(200),
  );
  const read = await api.request('/api/v1/orgs', { key: ws.apiKey });
  expect([read.status, read.body]).toEqual([
    429,
    { error: 'rate limit exceeded for this credential, retry later', code: 'rate_limited' },
  ]);
  const wait = Number(read.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
  const write = await api.request('/api/v1/orgs', {
    key: ws.apiKey,
    method: 'PATCH',
    body: { name: 'Never' },
  });
  expect(write.status).toBe(429);

  const other = () => api.request('/api/v1/orgs', { key: second.body.key });
  expect(await statuses(LIMIT + 1, other)).toEqual([...Array<number>(LIMIT).fill(200), 429]);
  const session = () => api.request('/api/v1/orgs', { session: login.body.session_token });
  const answers = await statuses(LIMIT + 1, session);
  expect(answers).toEqual([...Array<number>(LIMIT).fill(200), 429]);
  const org = await api.database.db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', ws.orgId)
    .executeTakeFirstOrThrow();
  expect(org.name).not.toBe('Never');
});

it('lets requests through when Redis cannot answer', async () => {
  const logger = createLogger({ level: 'silent', name: 'api-rate-limit-test' });
  // Nothing listens on the discard port: every Redis command fails.
  const redis: Redis = createRedis('redis://127.0.0.1:9', { role: 'client', name: 'api-rate-limit-test' });
  const limiter = createRateLimiter(redis, { prefix: 'unreachable', limit: 1, windowSeconds: 60 });
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
      credentials: dbCredentialStore(api.database.db),
      bodyLimitBytes: 1024,
      perCredential: perCredentialLimit(limiter, logger),
    }),
  );
  const server: RunningServer = await listen(
    createHttpApp({ logger, dashboardOrigin: '', trustProxy: [], routes: router }),
    0,
    '127.0.0.1',
  );
  try {
    const call = async () => {
      const res = await fetch(`http://127.0.0.1:${server.port}/probe`, {
        headers: { authorization: `Bearer ${ws.apiKey}` },
      });
      await res.text();
      return res;
    };
    expect(await statuses(3, call)).toEqual([200, 200, 200]);
  } finally {
    await server.close();
    redis.disconnect();
  }
}, 60_000);
