// Proves the dashboard's sign-in keeps the session token in the cookie and nowhere else: the cookie has
// exactly the attributes the contract asks (HttpOnly, SameSite=Strict, Path=/, expiring with the
// session; no Secure under NODE_ENV=test), the answer's body carries no token, calls through the
// forwarder work with the cookie and are 401 without it; sign-out and sign-out-everywhere end the
// sessions at the API itself, and a session that expired in Postgres clears the cookie. The API runs
// for real over its own database and the dashboard as its own process in front of it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startTestDashboard, type TestDashboard, type TestWorkspace } from '@evds/testkit';
import { browser, sessionOf, signIn, type Browser } from './helpers.ts';

let t: TestDashboard;
let call: Browser;
let ws: TestWorkspace;

beforeAll(async () => {
  t = await startTestDashboard();
  call = browser(t.url);
  ws = await seedWorkspace(t.api.database.db);
});
afterAll(() => t.stop());

const CLEARED =
  /^evds_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT$/;
const apiMe = (token: string) => t.api.request('/api/v1/auth/me', { session: token });

describe('sign-in', () => {
  it('sets the session cookie with the exact attributes, and the body has no token', async () => {
    const res = await call<{ user: Record<string, unknown>; org_id: string; expires_at: number }>(
      '/app/login',
      {
        body: { email: ws.email, password: ws.password },
      },
    );
    expect(res.status).toBe(200);
    expect(res.cookies).toHaveLength(1);
    const m =
      /^evds_session=([0-9a-f]{64}); Path=\/; HttpOnly; SameSite=Strict; Max-Age=(\d+); Expires=([^;]+)$/.exec(
        res.cookies[0]!,
      );
    expect(m).not.toBeNull();
    const [, token, maxAge, expires] = m!;
    expect(res.body).toEqual({
      user: { id: ws.userId, email: ws.email, name: expect.any(String) },
      org_id: ws.orgId,
      expires_at: expect.any(Number),
    });
    // The cookie lives exactly as long as the session the API created.
    expect(Math.abs(Number(maxAge) - (res.body.expires_at - Date.now() / 1000))).toBeLessThan(5);
    expect(Date.parse(expires!) / 1000).toBe(res.body.expires_at);
    expect(res.text).not.toContain(token!);
    expect(res.text).not.toMatch(/session_token/);
    // It is a real session of the API.
    expect((await apiMe(token!)).status).toBe(200);
  });

  it('passes wrong passwords, wrong types and malformed JSON on as the API answers them, setting no cookie', async () => {
    const wrong = await call('/app/login', { body: { email: ws.email, password: 'not-the-password' } });
    expect({ status: wrong.status, code: wrong.body.code, cookies: wrong.cookies }).toEqual({
      status: 401,
      code: 'unauthenticated',
      cookies: [],
    });
    const numbers = await call('/app/login', { body: { email: 12, password: 34 } });
    expect({ status: numbers.status, code: numbers.body.code, cookies: numbers.cookies }).toEqual({
      status: 400,
      code: 'validation_failed',
      cookies: [],
    });
    const missing = await call('/app/login', { body: {} });
    expect(missing.status).toBe(400);
    const malformed = await call('/app/login', { body: '{"email": "a@b.c",' });
    expect({ status: malformed.status, body: malformed.body }).toEqual({
      status: 400,
      body: { error: 'request body is not valid JSON', code: 'invalid_json' },
    });
    const form = await call('/app/login', {
      body: 'email=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect({ status: form.status, code: form.body.code }).toEqual({
      status: 415,
      code: 'unsupported_media_type',
    });
  });
});

describe('calls through the dashboard', () => {
  it('forward with the cookie, and are 401 without one or with a made-up one (the cookie cleared)', async () => {
    const session = await signIn(call, ws);
    const orgs = await call('/api/v1/orgs', { session });
    expect(orgs.status).toBe(200);
    expect(orgs.body).toEqual({ org: expect.objectContaining({ id: ws.orgId }) });
    expect(orgs.text).not.toContain(session);

    const none = await call('/api/v1/orgs');
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    expect(none.cookies).toEqual([expect.stringMatching(CLEARED)]);
    const madeUp = await call('/api/v1/orgs', { session: 'f'.repeat(64) });
    expect(madeUp.status).toBe(401);
    expect(madeUp.cookies).toEqual([expect.stringMatching(CLEARED)]);

    const me = await call<{ user: { id: string } }>('/app/me', { session });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(ws.userId);
    expect(me.text).not.toContain(session);
    const meWithout = await call('/app/me');
    expect(meWithout.status).toBe(401);
    expect(meWithout.cookies).toEqual([expect.stringMatching(CLEARED)]);
  });

  it('send a state change with the body as given (rename the organization)', async () => {
    const session = await signIn(call, ws);
    const renamed = await call('/api/v1/orgs', {
      method: 'PATCH',
      session,
      body: { name: 'Renamed via dashboard' },
    });
    expect({ status: renamed.status, body: renamed.body }).toEqual({ status: 200, body: { updated: true } });
    const org = await t.api.database.db
      .selectFrom('organizations')
      .select('name')
      .where('id', '=', ws.orgId)
      .executeTakeFirstOrThrow();
    expect(org.name).toBe('Renamed via dashboard');
  });
});

describe('sign-out', () => {
  it('logout clears the cookie and ends the session at the API', async () => {
    const session = await signIn(call, ws);
    const res = await call('/app/logout', { method: 'POST', session });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { signed_out: true } });
    expect(res.cookies).toEqual([expect.stringMatching(CLEARED)]);
    expect((await apiMe(session)).status).toBe(401);
    expect((await call('/api/v1/orgs', { session })).status).toBe(401);
    // Signing out again (the cookie already dead, or none at all) still answers signed out.
    expect((await call('/app/logout', { method: 'POST', session })).status).toBe(200);
    expect((await call('/app/logout', { method: 'POST' })).status).toBe(200);
  });

  it("logout-all ends every session of the user, and only that user's", async () => {
    const other = await seedWorkspace(t.api.database.db);
    const otherSession = await signIn(call, other);
    const sessions = [await signIn(call, ws), await signIn(call, ws), await signIn(call, ws)];
    for (const s of sessions) expect((await apiMe(s)).status).toBe(200);
    const res = await call('/app/logout-all', { method: 'POST', session: sessions[0] });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { signed_out: true } });
    expect(res.cookies).toEqual([expect.stringMatching(CLEARED)]);
    for (const s of sessions) expect((await apiMe(s)).status).toBe(401);
    const left = await t.api.database.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', ws.userId)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    expect((await apiMe(otherSession)).status).toBe(200);
  });

  it('a session that expired (in Postgres) answers 401 and clears the cookie', async () => {
    const session = await signIn(call, ws);
    expect((await call('/api/v1/orgs', { session })).status).toBe(200);
    await t.api.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', ws.userId)
      .execute();
    for (const path of ['/api/v1/orgs', '/app/me']) {
      const res = await call(path, { session });
      expect({ path, status: res.status, cleared: res.cookies.some((c) => CLEARED.test(c)) }).toEqual({
        path,
        status: 401,
        cleared: true,
      });
    }
    expect(sessionOf(await call('/app/login', { body: { email: ws.email, password: ws.password } }))).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });
});
