// Proves password checks wait in a bounded line: one process derives one scrypt hash at a time and
// lets at most 16 more wait, so a burst of 40 concurrent logins gets some 503 `unavailable` answers
// with Retry-After, given at once without deriving, and never a 500; the others are 200 or 401 as
// their passwords deserve, and once the burst is over a login succeeds again.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

const BURST = 40;
/** The one derivation under way and the 16 waiting are always let in. */
const ALWAYS_ADMITTED = 17;

let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  // Every attempt comes from 127.0.0.1 and names one account: the login limits are raised out of the way.
  api = await startTestApi({ LOGIN_RATE_LIMIT: '1000', LOGIN_ACCOUNT_RATE_LIMIT: '1000' });
  ws = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

const login = async (password: string) => {
  const started = performance.now();
  const r = await api.request('/api/v1/auth/login', { body: { email: ws.email, password } });
  return { ...r, password, ms: performance.now() - started };
};

it('answers a burst beyond the line with 503 and Retry-After at once, and recovers', async () => {
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) => login(i % 2 === 0 ? ws.password : 'not-the-password')),
  );
  const refused = answers.filter((r) => r.status === 503);
  const checked = answers.filter((r) => r.status !== 503);
  console.log(
    `${BURST} logins at once: ${checked.length} checked (slowest ${Math.round(Math.max(...checked.map((r) => r.ms)))} ms), ` +
      `${refused.length} refused (slowest ${Math.round(Math.max(0, ...refused.map((r) => r.ms)))} ms)`,
  );

  expect(refused.length).toBeGreaterThan(0);
  expect(checked.length).toBeGreaterThanOrEqual(ALWAYS_ADMITTED);
  for (const r of refused) {
    expect(r.body).toEqual({ error: 'too many sign-ins at once; retry shortly', code: 'unavailable' });
    expect(r.headers.get('retry-after')).toBe('1');
  }
  for (const r of checked) expect(r.status).toBe(r.password === ws.password ? 200 : 401);
  // Refused without waiting for a derivation: long before the line in front of them was through.
  expect(Math.max(...refused.map((r) => r.ms))).toBeLessThan(Math.max(...checked.map((r) => r.ms)) / 2);

  expect((await login(ws.password)).status).toBe(200);
}, 60_000);
