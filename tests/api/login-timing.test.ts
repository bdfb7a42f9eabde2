// Proves a failed login does not tell an existing account from an unknown email by its time: a wrong
// password for a user whose stored hash still has the old scrypt parameters (N=16384, eight times
// cheaper than today's) takes about as long as an unknown email, which is checked against a dummy hash
// at today's parameters. Medians of interleaved rounds over HTTP, compared as a ratio, so a busy
// machine slows both sides alike; the numbers are printed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  giveLegacyPasswordHash,
  seedWorkspace,
  startTestApi,
  type TestApi,
  type TestWorkspace,
} from '@evds/testkit';

const ROUNDS = 5;

let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  // Every attempt comes from 127.0.0.1 and names one account: the login limits are raised out of the way.
  api = await startTestApi({ LOGIN_RATE_LIMIT: '1000', LOGIN_ACCOUNT_RATE_LIMIT: '1000' });
  ws = await seedWorkspace(api.database.db);
  await giveLegacyPasswordHash(api.database.db, ws);
});
afterAll(() => api.stop());

/** Milliseconds of one failed login over HTTP (it must fail with 401). */
async function failedLoginMs(email: string): Promise<number> {
  const started = performance.now();
  const r = await api.request('/api/v1/auth/login', { body: { email, password: 'not-the-password' } });
  const ms = performance.now() - started;
  expect(r.status).toBe(401);
  return ms;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

it('a wrong password for an account with an old hash costs what an unknown email costs', async () => {
  const unknown = `nobody-${randomBytes(4).toString('hex')}@example.test`;
  // Warm up both paths (first 128 MiB allocation, connections), then alternate which goes first.
  await failedLoginMs(ws.email);
  await failedLoginMs(unknown);
  const existing: number[] = [];
  const missing: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      existing.push(await failedLoginMs(ws.email));
      missing.push(await failedLoginMs(unknown));
    } else {
      missing.push(await failedLoginMs(unknown));
      existing.push(await failedLoginMs(ws.email));
    }
  }
  const ratio = median(existing) / median(missing);
  console.log(
    `failed login, old-hash account: ${existing.map(Math.round).join(', ')} ms (median ${Math.round(median(existing))}); ` +
      `unknown email: ${missing.map(Math.round).join(', ')} ms (median ${Math.round(median(missing))}); ` +
      `ratio ${ratio.toFixed(2)}`,
  );
  expect(ratio).toBeGreaterThan(0.6);
  expect(ratio).toBeLessThan(1.6);
});
