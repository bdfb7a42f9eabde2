// Proves the disabled signup route's own limit: 3 calls per 15 minutes per client IP, counting every
// call (malformed ones too, which answer 400); the first three answer 403 as always, the fourth 429
// with a clear message and Retry-After, and another IP still gets the 403. Client addresses come
// from X-Forwarded-For, believed because the test API trusts loopback.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startTestApi, type TestApi } from '@evds/testkit';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ TRUST_PROXY: 'loopback' });
});
afterAll(() => api.stop());

const signup = (ip: string, body: unknown = { email: 'new@example.test', password: 'pw' }) =>
  api.request('/api/v1/auth/signup', { method: 'POST', body, headers: { 'x-forwarded-for': ip } });

it('answers 403 three times per IP in the window, then 429 with Retry-After', async () => {
  const ip = '203.0.113.20';
  for (const body of [undefined, {}, { email: 'a@b.c', password: 'x' }])
    expect((await signup(ip, body)).status).toBe(403);
  const limited = await signup(ip);
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({
    error: 'too many signup attempts, please try again later',
    code: 'rate_limited',
  });
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(15 * 60 - 30);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect((await signup('203.0.113.21')).status).toBe(403);
});

it('counts malformed calls too', async () => {
  const ip = '203.0.113.22';
  for (let i = 0; i < 3; i++) expect((await signup(ip, '{bad')).status).toBe(400);
  expect((await signup(ip)).status).toBe(429);
});
