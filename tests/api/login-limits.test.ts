// Proves the login limits beside the per-address one: attempts from one IPv6 /64 are counted together
// whichever addresses inside it they come from (another /64 is unaffected), attempts naming one account
// are counted together whichever network they come from and whatever the password (another account
// still logs in), and an IPv4 address is one bucket however it is written (IPv4-mapped IPv6 included). Every refusal is 429 with the spec's message and Retry-After. Client addresses come from
// X-Forwarded-For, believed because the test API trusts loopback.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestResponse } from '@evds/testkit';

const PREFIX_LIMIT = 3;
const ACCOUNT_LIMIT = 8;
const WINDOW_SECONDS = 15 * 60;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({
    TRUST_PROXY: 'loopback',
    LOGIN_PREFIX_RATE_LIMIT: String(PREFIX_LIMIT),
    LOGIN_ACCOUNT_RATE_LIMIT: String(ACCOUNT_LIMIT),
  });
});
afterAll(() => api.stop());

const attempt = (ip: string, email: string, password: string) =>
  api.request('/api/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

function expectRefused(r: TestResponse): void {
  expect(r.status).toBe(429);
  expect(r.body).toEqual({ error: 'too many login attempts, please try again later', code: 'rate_limited' });
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(WINDOW_SECONDS - 30);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
}

it('counts every address of one IPv6 /64 together, and each /64 on its own', async () => {
  const ws = await seedWorkspace(api.database.db);
  const answers = [];
  for (const host of ['a', 'b', 'c', 'd', 'e', 'f'])
    answers.push(await attempt(`2001:db8:1:2::${host}`, ws.email, ws.password));
  expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429, 429]);
  for (const r of answers.slice(PREFIX_LIMIT)) expectRefused(r);
  expect((await attempt('2001:db8:1:3::a', ws.email, ws.password)).status).toBe(200);
});

it('counts attempts naming one account together, from any network, before the password is checked', async () => {
  const ws = await seedWorkspace(api.database.db);
  const other = await seedWorkspace(api.database.db);
  // The same account however its email is cased; every attempt from a different network.
  const spellings = [ws.email, ws.email.toUpperCase()];
  const statuses = [];
  for (let i = 0; i < ACCOUNT_LIMIT; i++)
    statuses.push((await attempt(`198.51.100.${i + 1}`, spellings[i % 2] ?? '', 'wrong')).status);
  expect(statuses).toEqual(Array(ACCOUNT_LIMIT).fill(401));
  // The right password from a fresh IPv6 network changes nothing: the account is refused first.
  expectRefused(await attempt('2001:db8:77::1', ws.email, ws.password));
  expectRefused(await attempt('198.51.100.200', ` ${ws.email.toUpperCase()} `, ws.password));
  expect((await attempt('198.51.100.201', other.email, other.password)).status).toBe(200);
});

it('counts an address as one, however it is written', async () => {
  const ws = await seedWorkspace(api.database.db);
  const spellings = [
    '203.0.113.50',
    '::ffff:203.0.113.50',
    '::ffff:cb00:7132',
    '203.0.113.50',
    '::ffff:203.0.113.50',
  ];
  for (const ip of spellings) expect((await attempt(ip, ws.email, ws.password)).status).toBe(200);
  expectRefused(await attempt('::ffff:203.0.113.50', ws.email, ws.password));
});
