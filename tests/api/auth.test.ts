// Proves the account routes over real HTTP against the API on its own database: signup is closed,
// login issues sessions (and is limited per IP with the spec's message), sessions are capped at five
// per user with the oldest evicted, logout and logout-all revoke on the very next request, and
// every guard answers 401 for missing, malformed, unknown and wrong-kind credentials.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi({ LOGIN_RATE_LIMIT: '1000', LOGIN_ACCOUNT_RATE_LIMIT: '1000' });
  ws = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

const login = (email: string, password: string) =>
  api.request<{ session_token: string; expires_at: number; user: Record<string, unknown> }>(
    '/api/v1/auth/login',
    {
      body: { email, password },
    },
  );

describe('signup', () => {
  it.each([undefined, { email: 'a@b.c', password: 'x' }])(
    'always answers 403 and creates nothing (body %j)',
    async (body) => {
      const before = await api.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const r = await api.request('/api/v1/auth/signup', { method: 'POST', body });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: expect.any(String), code: 'forbidden' });
      const after = await api.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    },
  );
});

describe('login', () => {
  it('returns a 64-hex session token valid for 7 days, with the user', async () => {
    const r = await login(ws.email, ws.password);
    expect(r.status).toBe(200);
    expect(r.body.session_token).toMatch(/^[0-9a-f]{64}$/);
    const week = 7 * 24 * 3600;
    expect(Math.abs(r.body.expires_at - (Date.now() / 1000 + week))).toBeLessThan(60);
    expect(r.body.user).toEqual({
      id: ws.userId,
      email: ws.email,
      name: expect.any(String),
      org_id: ws.orgId,
      created_at: expect.any(Number),
    });
    expect(JSON.stringify(r.body)).not.toContain('password');
  });

  it('accepts the email in any case', async () => {
    expect((await login(ws.email.toUpperCase(), ws.password)).status).toBe(200);
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await login(ws.email, 'not-the-password');
    const unknown = await login('nobody@example.test', ws.password);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it.each([
    ['malformed JSON', '{"email": ', 400],
    ['a number for email', JSON.stringify({ email: 5, password: 'x' }), 400],
    ['a missing password', JSON.stringify({ email: 'a@b.c' }), 400],
    ['an unknown field', JSON.stringify({ email: 'a@b.c', password: 'x', admin: true }), 400],
    ['an array body', '[]', 400],
  ])('refuses %s with a clear 400', async (_name, body, status) => {
    const r = await api.request('/api/v1/auth/login', { body });
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
  });

  it('names the offending field', async () => {
    const r = await api.request('/api/v1/auth/login', { body: { email: ws.email, password: 42 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^password: /);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const r = await api.request('/api/v1/auth/login', {
      body: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(415);
  });
});

describe('sessions', () => {
  it('keeps at most five per user, evicting the oldest', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push((await login(ws.email, ws.password)).body.session_token);
    const statuses = await Promise.all(
      tokens.map(async (t) => (await api.request('/api/v1/auth/me', { session: t })).status),
    );
    expect(statuses).toEqual([401, 200, 200, 200, 200, 200]);
    const live = await api.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', ws.userId)
      .execute();
    expect(live).toHaveLength(5);
  });

  it('logout revokes the current session on the very next request, and only it', async () => {
    const a = (await login(ws.email, ws.password)).body.session_token;
    const b = (await login(ws.email, ws.password)).body.session_token;
    const out = await api.request('/api/v1/auth/logout', { method: 'POST', session: a });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ logged_out: true });
    expect((await api.request('/api/v1/auth/me', { session: a })).status).toBe(401);
    expect((await api.request('/api/v1/auth/me', { session: b })).status).toBe(200);
  });

  it('logout-all revokes every session of the user and says how many', async () => {
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push((await login(ws.email, ws.password)).body.session_token);
    const live = await api.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', ws.userId)
      .execute();
    const r = await api.request('/api/v1/auth/logout-all', { method: 'POST', session: tokens[0] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ revoked_sessions: live.length });
    for (const t of tokens) expect((await api.request('/api/v1/auth/me', { session: t })).status).toBe(401);
  });

  it('an expired session answers 401', async () => {
    const t = (await login(ws.email, ws.password)).body.session_token;
    await api.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', ws.userId)
      .execute();
    const r = await api.request('/api/v1/auth/me', { session: t });
    expect(r.status).toBe(401);
  });
});

describe('me and guards', () => {
  it('describes a session caller', async () => {
    const t = (await login(ws.email, ws.password)).body.session_token;
    const r = await api.request<{ user: { id: string }; org: { id: string }; auth: unknown }>(
      '/api/v1/auth/me',
      { session: t },
    );
    expect(r.status).toBe(200);
    expect(r.body.user.id).toBe(ws.userId);
    expect(r.body.org.id).toBe(ws.orgId);
    expect(r.body.auth).toEqual({ method: 'session' });
  });

  it('describes an API-key caller with the key id and its creator', async () => {
    const r = await api.request<{ user: { id: string }; auth: unknown }>('/api/v1/auth/me', {
      key: ws.apiKey,
    });
    expect(r.status).toBe(200);
    expect(r.body.user.id).toBe(ws.userId);
    expect(r.body.auth).toEqual({ method: 'api_key', key_id: ws.keyId });
  });

  it.each([
    ['no credential', {}],
    ['a malformed Authorization header', { authorization: 'Basic abc' }],
    ['an unknown API key', { authorization: `Bearer evds_sk_${'0'.repeat(64)}` }],
    ['a key of the wrong shape', { authorization: 'Bearer hello' }],
    ['an unknown session token', { 'x-session-token': 'f'.repeat(64) }],
    ['a session token of the wrong shape', { 'x-session-token': 'short' }],
  ])('answers 401 to %s', async (_name, headers) => {
    const r = await api.request('/api/v1/auth/me', { headers });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('unauthenticated');
  });

  it('a session-only route refuses an API key with 401 naming the credential it needs', async () => {
    const r = await api.request('/api/v1/auth/logout', { method: 'POST', key: ws.apiKey });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('this route requires a session token');
  });
});
