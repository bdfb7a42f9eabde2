// Proves the dashboard refuses what another site can make a browser send: every state-changing request
// to /app or /api/v1 without X-Requested-With, with an Origin that is not the dashboard's, or marked
// Sec-Fetch-Site cross-site or same-site answers 403 csrf_refused before anything is forwarded (the
// state at the API is unchanged), a cross-site form post included; the page's own requests pass, and
// reads need no marker. With DASHBOARD_PUBLIC_ORIGIN set, that origin and no other is the dashboard's.
// It also proves the browser's address reaches the API (X-Forwarded-For), so the API's per-address
// login limit counts browsers, not the dashboard, when the API trusts the dashboard as a proxy.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startTestDashboard, type TestDashboard, type TestWorkspace } from '@evds/testkit';
import { browser, PAGE_MARKER, signIn, type Browser } from './helpers.ts';

let t: TestDashboard;
let call: Browser;
let ws: TestWorkspace;
let session: string;

beforeAll(async () => {
  t = await startTestDashboard();
  call = browser(t.url);
  ws = await seedWorkspace(t.api.database.db);
  session = await signIn(call, ws);
});
afterAll(() => t.stop());

const orgName = async () =>
  (
    await t.api.database.db
      .selectFrom('organizations')
      .select('name')
      .where('id', '=', ws.orgId)
      .executeTakeFirstOrThrow()
  ).name;

const refused = { status: 403, code: 'csrf_refused' };

describe('state-changing requests', () => {
  const cases: [string, string][] = [
    ['PATCH', '/api/v1/orgs'],
    ['POST', '/api/v1/keys'],
    ['DELETE', '/api/v1/keys/key_0000'],
    ['PUT', '/api/v1/orgs'],
    ['POST', '/app/login'],
    ['POST', '/app/logout'],
    ['POST', '/app/logout-all'],
    ['DELETE', '/app/inbox'],
    ['POST', '/app/no-such-route'],
  ];

  it.each(cases)('%s %s without X-Requested-With: 403', async (method, path) => {
    const res = await call(path, { method, session, body: { name: 'x' }, bare: true });
    expect({ status: res.status, code: res.body.code }).toEqual(refused);
  });

  it.each(cases)('%s %s from another origin, even with the marker: 403', async (method, path) => {
    for (const origin of ['https://evil.example', 'null', t.url.replace('127.0.0.1', 'localhost')]) {
      const res = await call(path, { method, session, body: { name: 'x' }, headers: { origin } });
      expect({ origin, status: res.status, code: res.body.code }).toEqual({ origin, ...refused });
    }
  });

  it.each(['cross-site', 'same-site'])('Sec-Fetch-Site %s: 403', async (site) => {
    const res = await call('/api/v1/orgs', {
      method: 'PATCH',
      session,
      body: { name: 'x' },
      headers: { 'sec-fetch-site': site, origin: t.url },
    });
    expect({ status: res.status, code: res.body.code }).toEqual(refused);
  });

  it('a cross-site form post (the cookie, no marker, a form body) is refused and changes nothing', async () => {
    const before = await orgName();
    const res = await call('/api/v1/orgs', {
      method: 'PATCH',
      session,
      bare: true,
      body: 'name=Pwned',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    });
    expect({ status: res.status, code: res.body.code }).toEqual(refused);
    const post = await call('/app/logout', {
      method: 'POST',
      session,
      bare: true,
      body: 'x=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect({ status: post.status, code: post.body.code }).toEqual(refused);
    expect(await orgName()).toBe(before);
    expect((await t.api.request('/api/v1/auth/me', { session })).status).toBe(200);
  });

  it("the page's own requests pass: same Origin, same-origin fetch, the marker", async () => {
    const res = await call('/api/v1/orgs', {
      method: 'PATCH',
      session,
      body: { name: 'Same origin' },
      headers: { origin: t.url, 'sec-fetch-site': 'same-origin', ...PAGE_MARKER },
    });
    expect(res.status).toBe(200);
    expect(await orgName()).toBe('Same origin');
  });

  it('reads need no marker', async () => {
    expect(
      (await call('/api/v1/orgs', { session, headers: { 'sec-fetch-site': 'same-origin' } })).status,
    ).toBe(200);
  });
});

describe('with DASHBOARD_PUBLIC_ORIGIN', () => {
  let pinned: TestDashboard;
  beforeAll(async () => {
    pinned = await startTestDashboard({
      dashboardEnv: { DASHBOARD_PUBLIC_ORIGIN: 'https://dashboard.example' },
    });
  });
  afterAll(() => pinned.stop());

  it('accepts that origin only, not the host the request names', async () => {
    const other = await seedWorkspace(pinned.api.database.db);
    const pcall = browser(pinned.url);
    const ok = await pcall('/app/login', {
      body: { email: other.email, password: other.password },
      headers: { origin: 'https://dashboard.example' },
    });
    expect(ok.status).toBe(200);
    const own = await pcall('/app/login', {
      body: { email: other.email, password: other.password },
      headers: { origin: pinned.url },
    });
    expect({ status: own.status, code: own.body.code }).toEqual(refused);
  });
});

describe("the browser's address", () => {
  let proxied: TestDashboard;
  beforeAll(async () => {
    proxied = await startTestDashboard({
      apiEnv: { TRUST_PROXY: 'loopback', LOGIN_RATE_LIMIT: '2' },
      dashboardEnv: { TRUST_PROXY: 'loopback' },
    });
  });
  afterAll(() => proxied.stop());

  it("reaches the API: its per-address login limit counts each browser's attempts apart", async () => {
    const pcall = browser(proxied.url);
    const attempt = (ip: string) =>
      pcall('/app/login', {
        body: { email: 'nobody@example.test', password: 'wrong' },
        headers: { 'x-forwarded-for': ip },
      });
    expect((await attempt('203.0.113.7')).status).toBe(401);
    expect((await attempt('203.0.113.7')).status).toBe(401);
    const third = await attempt('203.0.113.7');
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect((await attempt('203.0.113.8')).status).toBe(401);
  });
});
