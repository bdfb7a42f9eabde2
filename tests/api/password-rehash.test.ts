// Proves passwords are upgraded to today's scrypt parameters at login: a user whose stored hash was
// made with N=16384 logs in, and the row then holds an N=131072 hash of the same password that
// verifies (a second login succeeds and leaves it alone); a failed login never touches the hash.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { verifyPassword } from '@evds/accounts';
import {
  giveLegacyPasswordHash,
  seedWorkspace,
  startTestApi,
  type TestApi,
  type TestWorkspace,
} from '@evds/testkit';

let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi();
  ws = await seedWorkspace(api.database.db);
  await giveLegacyPasswordHash(api.database.db, ws);
});
afterAll(() => api.stop());

const storedHash = async () =>
  (
    await api.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', ws.userId)
      .executeTakeFirstOrThrow()
  ).password_hash;

const login = (password: string) =>
  api.request('/api/v1/auth/login', { body: { email: ws.email, password } });

it('a failed login leaves an old hash alone; a successful one replaces it with N=131072', async () => {
  const old = await storedHash();
  expect(old).toMatch(/^scrypt\$16384\$8\$1\$/);
  expect((await login('not-the-password')).status).toBe(401);
  expect(await storedHash()).toBe(old);

  expect((await login(ws.password)).status).toBe(200);
  const upgraded = await storedHash();
  expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);
  expect(await verifyPassword(ws.password, upgraded)).toBe(true);
  expect(await verifyPassword('not-the-password', upgraded)).toBe(false);
  // The new hash serves the next logins, which have nothing left to upgrade, failed or not.
  expect((await login(ws.password)).status).toBe(200);
  expect((await login('not-the-password')).status).toBe(401);
  expect(await storedHash()).toBe(upgraded);
});
