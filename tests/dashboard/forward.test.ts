// Proves the /api/v1 forwarder keeps tenants apart and bodies honest: a cookie of another organization
// gets 404 on this one's target ids (read, change, delete, rotate), bodies over the API's limit are 413
// before anything is forwarded (announced or streamed), malformed JSON is 400 invalid_json and wrong
// types the API's 400; the routes that deal in tokens are not reachable through it, however the path
// is spelt; and no answer the browser gets carries the session token.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startTestDashboard, type TestDashboard, type TestWorkspace } from '@evds/testkit';
import { browser, PAGE_MARKER, rawRequest, signIn, type Answer, type Browser } from './helpers.ts';

let t: TestDashboard;
let call: Browser;
let mine: TestWorkspace;
let theirs: TestWorkspace;
let session: string;
let foreign: string;
const seen: Answer<unknown>[] = [];

beforeAll(async () => {
  t = await startTestDashboard();
  const plain = browser(t.url);
  // Every answer of this file is kept, to search them all for the token at the end.
  call = (async (path: string, opts?: Parameters<Browser>[1]) => {
    const res = await plain(path, opts);
    seen.push(res);
    return res;
  }) as Browser;
  mine = await seedWorkspace(t.api.database.db);
  theirs = await seedWorkspace(t.api.database.db);
  session = await signIn(call, mine);
  foreign = await signIn(call, theirs);
});
afterAll(() => t.stop());

const targetCount = async (orgId: string) =>
  Number(
    (
      await t.api.database.db
        .selectFrom('targets')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('tenancy', () => {
  it("another organization's cookie gets 404 on this one's target ids", async () => {
    const created = await call<{ target: { id: string; secret: string } }>('/api/v1/targets', {
      session,
      body: { kind: 'webhook', name: 'Mine', url: 'https://127.0.0.1:9/hook' },
    });
    expect(created.status).toBe(201);
    const id = created.body.target.id;
    expect((await call(`/api/v1/targets/${id}`, { session })).status).toBe(200);
    const attempts: [string, string, unknown][] = [
      ['GET', `/api/v1/targets/${id}`, undefined],
      ['PATCH', `/api/v1/targets/${id}`, { name: 'Theirs now' }],
      ['POST', `/api/v1/targets/${id}/signing-secret/rotate`, undefined],
      ['DELETE', `/api/v1/targets/${id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(path, { method, session: foreign, body });
      expect({ method, status: res.status, code: (res.body as { code?: string }).code }).toEqual({
        method,
        status: 404,
        code: 'not_found',
      });
    }
    const list = await call<{ targets: { id: string }[] }>('/api/v1/targets', { session: foreign });
    expect(list.body.targets.map((x) => x.id)).not.toContain(id);
    const still = await call<{ target: { name: string } }>(`/api/v1/targets/${id}`, { session });
    expect(still.body.target.name).toBe('Mine');
  });
});

describe('bodies', () => {
  const big = JSON.stringify({ kind: 'mailbox', name: 'x', description: 'a'.repeat(1024 * 1024 + 10) });

  it('over the limit: 413 before anything is forwarded, announced or streamed', async () => {
    const before = await targetCount(mine.orgId);
    const announced = await call('/api/v1/targets', { session, body: big });
    expect({ status: announced.status, body: announced.body }).toEqual({
      status: 413,
      body: { error: 'request body is too large', code: 'payload_too_large' },
    });
    // Without a Content-Length: the body arrives in chunks and is cut off at the limit.
    const chunks = [Buffer.from(big.slice(0, 600_000)), Buffer.from(big.slice(600_000))];
    const res = await fetch(`${t.url}/api/v1/targets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `evds_session=${session}`, ...PAGE_MARKER },
      body: new ReadableStream({
        pull(c) {
          const next = chunks.shift();
          if (next) c.enqueue(next);
          else c.close();
        },
      }),
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'request body is too large', code: 'payload_too_large' });
    expect(await targetCount(mine.orgId)).toBe(before);
  });

  it('malformed JSON is 400 invalid_json; wrong types and missing fields are the API’s 400', async () => {
    const malformed = await call('/api/v1/targets', { session, body: '{"kind": "mailbox", "name": ' });
    expect({ status: malformed.status, body: malformed.body }).toEqual({
      status: 400,
      body: { error: 'request body is not valid JSON', code: 'invalid_json' },
    });
    const notUtf8 = await call('/api/v1/targets', { session, body: Buffer.from([0x7b, 0xff, 0x7d]) });
    expect(notUtf8.status).toBe(400);
    const types = await call('/api/v1/targets', { session, body: { kind: 'mailbox', name: 42 } });
    expect({ status: types.status, code: (types.body as { code: string }).code }).toEqual({
      status: 400,
      code: 'validation_failed',
    });
    const missing = await call('/api/v1/orgs', { method: 'PATCH', session, body: {} });
    expect(missing.status).toBe(400);
    const text = await call('/api/v1/orgs', {
      method: 'PATCH',
      session,
      body: 'name',
      headers: { 'content-type': 'text/plain' },
    });
    expect({ status: text.status, code: (text.body as { code: string }).code }).toEqual({
      status: 415,
      code: 'unsupported_media_type',
    });
  });
});

describe('routes that deal in tokens', () => {
  const spellings = [
    '/api/v1/auth/login',
    '/API/V1/AUTH/LOGIN',
    '/api/v1/auth/login/',
    '/api/v1/auth/Login?x=1',
    '/api/v1/keys/../auth/login',
    '/api/v1/keys/%2e%2e/auth/login',
    '/api/v1/auth//login',
    '/api/v1/auth/signup',
    '/api/v1/auth/logout',
    '/api/v1/auth/logout-all',
    '/api/v1/../v1/auth/login',
    '/api/v1/%2E%2E/%2E%2E/health',
  ];

  it.each(spellings)('%s is not reachable through the dashboard', async (path) => {
    const res = await rawRequest(t.url, {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...PAGE_MARKER, cookie: `evds_session=${session}` },
      body: JSON.stringify({ email: mine.email, password: mine.password }),
    });
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
    expect(JSON.parse(res.text)).toEqual({ error: expect.any(String), code: 'not_found' });
    expect(res.text).not.toMatch(/session_token|[0-9a-f]{64}/);
  });

  it('and the session they were sent with still works (logout was not forwarded)', async () => {
    expect((await call('/api/v1/orgs', { session })).status).toBe(200);
  });
});

it('no answer the browser got carries a session token', () => {
  expect(seen.length).toBeGreaterThan(10);
  for (const res of seen) {
    expect(res.text).not.toContain(session);
    expect(res.text).not.toContain(foreign);
    expect(res.text).not.toMatch(/session_token/);
  }
});
