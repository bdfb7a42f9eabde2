// Proves the login limit: 5 requests per 15 minutes per client IP, counting every attempt (right or
// wrong, well formed or not), the sixth answered 429 with the spec's exact message and Retry-After.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi({ TRUST_PROXY: 'loopback' });
  ws = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

const attempt = (ip: string, password: string) =>
  api.request('/api/v1/auth/login', {
    body: { email: ws.email, password },
    headers: { 'x-forwarded-for': ip },
  });

it('allows five attempts per IP in the window, then answers 429 with Retry-After', async () => {
  const ip = '203.0.113.7';
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await attempt(ip, i % 2 ? ws.password : 'wrong')).status);
  expect(statuses).toEqual([401, 200, 401, 200, 401]);
  const limited = await attempt(ip, ws.password);
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({
    error: 'too many login attempts, please try again later',
    code: 'rate_limited',
  });
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(15 * 60 - 30);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
});

it('counts each IP on its own', async () => {
  expect((await attempt('203.0.113.8', ws.password)).status).toBe(200);
});

it('counts malformed attempts too', async () => {
  const ip = '203.0.113.9';
  for (let i = 0; i < 5; i++) {
    const r = await api.request('/api/v1/auth/login', { body: '{bad', headers: { 'x-forwarded-for': ip } });
    expect(r.status).toBe(400);
  }
  expect((await attempt(ip, ws.password)).status).toBe(429);
});
