// Proves the legacy webhook endpoint routes over real HTTP against the API on its own database: create
// answers 200 {id, secret} and the secret never appears again; list and get show the spec's fields with
// event_types as a JSON-encoded string; PATCH is partial and answers the short record; turning inbound
// signature verification on hands out the inbound secret once and stores only an encrypted envelope;
// delete hides the endpoint everywhere but keeps the row; bad bodies are 400 naming the field, bodies
// over the limit 413; other organizations' ids, deleted ids, mailbox ids and ids of the wrong shape are
// 404; every route needs a credential; and URLs pass the network policy (http or malformed is 400,
// private, loopback or link-local is 422 url_refused with the policy's reason).
import { createDecipheriv } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getInboundSecret } from '@evds/db';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

let api: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi();
  ws = await seedWorkspace(api.database.db);
  other = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

const PUBLIC_URL = 'https://93.184.215.14/hook';
/** An endpoint nothing was attempted on: its health as every new endpoint shows it. */
const FRESH_HEALTH = {
  status: 'unknown',
  failing_since: null,
  last_success_at: null,
  last_failure_at: null,
  consecutive_failures: 0,
  circuit: 'closed',
  next_probe_at: null,
};

interface Endpoint {
  id: string;
  name: string;
  url: string;
  description: string;
  event_types: string;
  max_payload_bytes: number;
  max_retries: number;
  retry_interval_seconds: number;
  enabled: boolean;
  verify_inbound_signatures: boolean;
  created_at: number;
  updated_at: number;
}
type Patched = Pick<
  Endpoint,
  | 'id'
  | 'name'
  | 'url'
  | 'description'
  | 'event_types'
  | 'enabled'
  | 'verify_inbound_signatures'
  | 'updated_at'
> & { inbound_secret?: string };

const create = (key: string, body: unknown) =>
  api.request<{ id: string; secret: string; error?: string; code?: string }>('/api/v1/endpoints', {
    key,
    body,
  });
const get = (key: string, id: string) =>
  api.request<{ endpoint: Endpoint }>(`/api/v1/endpoints/${id}`, { key });
const patch = (key: string, id: string, body: unknown) =>
  api.request<{ endpoint: Patched }>(`/api/v1/endpoints/${id}`, { method: 'PATCH', key, body });
const list = (key: string) => api.request<{ endpoints: Endpoint[] }>('/api/v1/endpoints', { key });

async function newEndpoint(extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const r = await create(ws.apiKey, { name: 'orders', url: PUBLIC_URL, ...extra });
  expect(r.status).toBe(200);
  return r.body;
}

/**
 * Opens an envelope written by the API with the test's own code: the stored format is the contract,
 * bound to the target id and the column's purpose.
 */
function openEnvelope(
  envelope: string,
  at: { id: string; column: 'signing_secret' | 'inbound_secret' },
): string {
  const keys = new Map(
    (api.env.ENCRYPTION_KEYS ?? '').split(',').map((e) => {
      const [kid = '', b64 = ''] = e.split(':');
      return [kid, Buffer.from(b64, 'base64')] as const;
    }),
  );
  const [version = '', kid = '', iv = '', tag = '', ct = ''] = envelope.split('.');
  const key = keys.get(kid);
  if (!key) throw new Error(`no key ${kid}`);
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAAD(
    Buffer.from(`${version}.${kid}.${at.column === 'inbound_secret' ? 'inbound' : 'signing'}.${at.id}`),
  );
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}

const row = (id: string) =>
  api.database.db
    .selectFrom('targets')
    .select(['signing_secret', 'previous_signing_secret', 'inbound_secret', 'deleted_at', 'kind'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('create and read', () => {
  it('creates an endpoint: 200 {id, secret}, the secret shown only there', async () => {
    const r = await create(ws.apiKey, {
      name: 'Orders',
      url: PUBLIC_URL,
      description: 'order events',
      event_types: ['order.created', 'order.paid'],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const one = await get(ws.apiKey, r.body.id);
    expect(one.status).toBe(200);
    expect(one.body.endpoint).toEqual({
      id: r.body.id,
      name: 'Orders',
      url: PUBLIC_URL,
      description: 'order events',
      event_types: '["order.created","order.paid"]',
      max_payload_bytes: 262144,
      max_retries: 5,
      retry_interval_seconds: 60,
      enabled: true,
      verify_inbound_signatures: false,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      disabled_reason: null,
      health: FRESH_HEALTH,
    });
    expect(Math.abs(one.body.endpoint.created_at - Date.now() / 1000)).toBeLessThan(600);
    expect(one.text).not.toContain(r.body.secret);
    expect(one.text).not.toMatch(/secret"/);
    const all = await list(ws.apiKey);
    expect(all.body.endpoints.find((e) => e.id === r.body.id)).toEqual(one.body.endpoint);
    expect(all.text).not.toContain(r.body.secret);
  });

  it('stores the signing secret only as an encrypted envelope', async () => {
    const { id, secret } = await newEndpoint();
    const stored = await row(id);
    expect(stored.signing_secret).toMatch(/^v2\.test1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.signing_secret).not.toContain(secret);
    expect(openEnvelope(stored.signing_secret ?? '', { id, column: 'signing_secret' })).toBe(secret);
    expect(stored.previous_signing_secret).toBeNull();
  });

  it('defaults: no description is "", no event_types is "[]" (every type); repeats are dropped', async () => {
    const { id } = await newEndpoint();
    expect((await get(ws.apiKey, id)).body.endpoint).toMatchObject({ description: '', event_types: '[]' });
    const dup = await newEndpoint({ event_types: ['a', 'b', 'a'] });
    expect((await get(ws.apiKey, dup.id)).body.endpoint.event_types).toBe('["a","b"]');
  });

  it('lists only the caller’s webhook endpoints, oldest first, never a mailbox', async () => {
    const mine = await newEndpoint({ name: 'listed' });
    const mailbox = await api.request<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'mailbox', name: 'inbox' },
    });
    const theirs = await create(other.apiKey, { name: 'theirs', url: PUBLIC_URL });
    const ids = (await list(ws.apiKey)).body.endpoints.map((e) => e.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(mailbox.body.target.id);
    expect(ids).not.toContain(theirs.body.id);
    expect(ids.indexOf(mine.id)).toBe(ids.length - 1);
    expect((await get(ws.apiKey, mailbox.body.target.id)).status).toBe(404);
  });

  it('works with a session token as well as an API key', async () => {
    const login = await api.request<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: ws.email, password: ws.password },
    });
    const session = login.body.session_token;
    const r = await api.request<{ id: string }>('/api/v1/endpoints', {
      session,
      body: { name: 'via session', url: PUBLIC_URL },
    });
    expect(r.status).toBe(200);
    expect((await api.request(`/api/v1/endpoints/${r.body.id}`, { session })).status).toBe(200);
  });
});

describe('update', () => {
  it('changes only the fields sent and answers the short record', async () => {
    const { id } = await newEndpoint({ description: 'keep me', event_types: ['x'] });
    const r = await patch(ws.apiKey, id, { name: 'renamed' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      endpoint: {
        id,
        name: 'renamed',
        url: PUBLIC_URL,
        description: 'keep me',
        event_types: '["x"]',
        enabled: true,
        verify_inbound_signatures: false,
        updated_at: expect.any(Number),
      },
    });

    const r2 = await patch(ws.apiKey, id, {
      url: 'https://93.184.215.15/v2',
      event_types: [],
      enabled: false,
      description: '',
    });
    expect(r2.status).toBe(200);
    expect(r2.body.endpoint).toMatchObject({
      name: 'renamed',
      url: 'https://93.184.215.15/v2',
      event_types: '[]',
      enabled: false,
      description: '',
    });
    expect((await get(ws.apiKey, id)).body.endpoint).toMatchObject({
      name: 'renamed',
      url: 'https://93.184.215.15/v2',
      enabled: false,
      max_retries: 5,
    });
  });

  it('accepts an empty patch and changes nothing', async () => {
    const { id } = await newEndpoint({ name: 'still' });
    const before = (await get(ws.apiKey, id)).body.endpoint;
    const r = await patch(ws.apiKey, id, {});
    expect(r.status).toBe(200);
    expect(r.body.endpoint).toMatchObject({ name: 'still', updated_at: before.updated_at });
  });

  it('never shows the signing secret in a PATCH answer', async () => {
    const { id, secret } = await newEndpoint();
    const r = await patch(ws.apiKey, id, { name: 'x' });
    expect(r.text).not.toContain(secret);
  });
});

describe('inbound signature verification', () => {
  it('turning it on returns the inbound secret once and stores it encrypted; off drops it', async () => {
    const { id } = await newEndpoint();
    const on = await patch(ws.apiKey, id, { verify_inbound_signatures: true });
    expect(on.status).toBe(200);
    const inbound = on.body.endpoint.inbound_secret ?? '';
    expect(inbound).toMatch(/^whin_[0-9a-f]{64}$/);
    expect(on.body.endpoint.verify_inbound_signatures).toBe(true);

    const stored = await row(id);
    expect(stored.inbound_secret).toMatch(/^v2\.test1\./);
    expect(stored.inbound_secret).not.toContain(inbound);
    expect(openEnvelope(stored.inbound_secret ?? '', { id, column: 'inbound_secret' })).toBe(inbound);
    expect(await getInboundSecret(api.database.db, ws.orgId, id, { open: openEnvelope })).toBe(inbound);

    const read = await get(ws.apiKey, id);
    expect(read.body.endpoint.verify_inbound_signatures).toBe(true);
    expect(read.text).not.toContain(inbound);
    expect(read.text).not.toContain('inbound_secret');
    expect((await list(ws.apiKey)).text).not.toContain(inbound);

    // Sending true again keeps the secret producers already hold.
    const again = await patch(ws.apiKey, id, { verify_inbound_signatures: true, name: 'n' });
    expect(again.body.endpoint).not.toHaveProperty('inbound_secret');
    expect((await row(id)).inbound_secret).toBe(stored.inbound_secret);

    const off = await patch(ws.apiKey, id, { verify_inbound_signatures: false });
    expect(off.status).toBe(200);
    expect(off.body.endpoint).not.toHaveProperty('inbound_secret');
    expect(off.body.endpoint.verify_inbound_signatures).toBe(false);
    expect((await row(id)).inbound_secret).toBeNull();
    expect(await getInboundSecret(api.database.db, ws.orgId, id, { open: openEnvelope })).toBeNull();

    const back = await patch(ws.apiKey, id, { verify_inbound_signatures: true });
    expect(back.body.endpoint.inbound_secret).toMatch(/^whin_/);
    expect(back.body.endpoint.inbound_secret).not.toBe(inbound);
  });
});

describe('delete', () => {
  it('hides the endpoint everywhere (404) but keeps the row', async () => {
    const { id } = await newEndpoint();
    const del = await api.request(`/api/v1/endpoints/${id}`, { method: 'DELETE', key: ws.apiKey });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    expect((await get(ws.apiKey, id)).status).toBe(404);
    expect((await patch(ws.apiKey, id, { name: 'x' })).status).toBe(404);
    expect((await api.request(`/api/v1/endpoints/${id}`, { method: 'DELETE', key: ws.apiKey })).status).toBe(
      404,
    );
    expect((await api.request(`/api/v1/targets/${id}`, { key: ws.apiKey })).status).toBe(404);
    expect((await list(ws.apiKey)).body.endpoints.map((e) => e.id)).not.toContain(id);
    expect((await row(id)).deleted_at).toBeInstanceOf(Date);
  });
});

describe('validation', () => {
  const long = (n: number) => 'x'.repeat(n);
  it.each([
    ['no name', { url: PUBLIC_URL }, /^name: /],
    ['a blank name', { name: '   ', url: PUBLIC_URL }, /^name: /],
    ['a 201-character name', { name: long(201), url: PUBLIC_URL }, /^name: /],
    ['a numeric name', { name: 5, url: PUBLIC_URL }, /^name: /],
    ['no url', { name: 'n' }, /^url: /],
    ['a url that is not a URL', { name: 'n', url: 'not a url' }, /^url: must be a valid absolute URL/],
    ['an http url', { name: 'n', url: 'http://93.184.215.14/hook' }, /^url: must be an https URL/],
    ['a url with user info', { name: 'n', url: 'https://u:p@93.184.215.14/' }, /^url: must not contain/],
    ['a numeric url', { name: 'n', url: 42 }, /^url: /],
    [
      'a 2001-character description',
      { name: 'n', url: PUBLIC_URL, description: long(2001) },
      /^description: /,
    ],
    ['event_types as a string', { name: 'n', url: PUBLIC_URL, event_types: '["a"]' }, /^event_types: /],
    [
      '101 event types',
      { name: 'n', url: PUBLIC_URL, event_types: [...Array(101).keys()].map(String) },
      /^event_types: /,
    ],
    ['an empty event type', { name: 'n', url: PUBLIC_URL, event_types: [''] }, /^event_types\.0: /],
    [
      'a 201-character event type',
      { name: 'n', url: PUBLIC_URL, event_types: [long(201)] },
      /^event_types\.0: /,
    ],
    ['a numeric event type', { name: 'n', url: PUBLIC_URL, event_types: ['a', 1] }, /^event_types\.1: /],
    ['an unknown field', { name: 'n', url: PUBLIC_URL, max_retries: 9 }, /max_retries/],
    ['an array body', [], /^body: /],
  ])('create refuses %s with 400 naming the field', async (_name, body, message) => {
    const before = (await list(ws.apiKey)).body.endpoints.length;
    const r = await create(ws.apiKey, body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
    expect(r.body.error).toMatch(message);
    expect((await list(ws.apiKey)).body.endpoints).toHaveLength(before);
  });

  it.each([
    ['an empty name', { name: '' }, /^name: /],
    ['enabled as a string', { enabled: 'yes' }, /^enabled: /],
    [
      'verify_inbound_signatures as a string',
      { verify_inbound_signatures: 'true' },
      /^verify_inbound_signatures: /,
    ],
    ['an http url', { url: 'http://93.184.215.14/' }, /^url: must be an https URL/],
    ['event_types as null', { event_types: null }, /^event_types: /],
    ['a secret', { secret: 'whsec_x' }, /secret/],
    ['max_retries', { max_retries: 1 }, /max_retries/],
  ])('PATCH refuses %s with 400 naming the field and changes nothing', async (_name, body, message) => {
    const { id } = await newEndpoint({ name: 'unchanged' });
    const r = await patch(ws.apiKey, id, body);
    expect(r.status).toBe(400);
    expect((r.body as unknown as { error: string }).error).toMatch(message);
    expect((await get(ws.apiKey, id)).body.endpoint).toMatchObject({
      name: 'unchanged',
      url: PUBLIC_URL,
      enabled: true,
    });
  });

  it('refuses malformed JSON with 400 and creates nothing', async () => {
    const before = (await list(ws.apiKey)).body.endpoints.length;
    const r = await create(ws.apiKey, '{"name": "x", "url": ');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_json');
    expect((await list(ws.apiKey)).body.endpoints).toHaveLength(before);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const r = await api.request('/api/v1/endpoints', {
      key: ws.apiKey,
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(415);
  });

  it('refuses a body over the limit with 413', async () => {
    const { id } = await newEndpoint();
    const huge = { name: 'n', url: PUBLIC_URL, description: 'x'.repeat(1024 * 1024 + 1) };
    expect((await create(ws.apiKey, huge)).status).toBe(413);
    expect((await patch(ws.apiKey, id, { description: huge.description })).status).toBe(413);
  });
});

describe('isolation and credentials', () => {
  it("answers 404 for another organization's endpoint on every route and leaves it untouched", async () => {
    const theirs = await create(other.apiKey, { name: 'theirs', url: PUBLIC_URL });
    const id = theirs.body.id;
    expect((await get(ws.apiKey, id)).status).toBe(404);
    expect((await patch(ws.apiKey, id, { name: 'taken' })).status).toBe(404);
    expect((await patch(ws.apiKey, id, { verify_inbound_signatures: true })).status).toBe(404);
    expect((await api.request(`/api/v1/endpoints/${id}`, { method: 'DELETE', key: ws.apiKey })).status).toBe(
      404,
    );
    const still = await get(other.apiKey, id);
    expect(still.status).toBe(200);
    expect(still.body.endpoint).toMatchObject({ name: 'theirs', verify_inbound_signatures: false });
  });

  it.each(['nope', '0'.repeat(31), 'A'.repeat(32), '0'.repeat(33), '%00'])(
    'answers 404 for an id of the wrong shape (%s)',
    async (id) => {
      expect((await get(ws.apiKey, id)).status).toBe(404);
      expect((await patch(ws.apiKey, id, { name: 'x' })).status).toBe(404);
      expect(
        (await api.request(`/api/v1/endpoints/${id}`, { method: 'DELETE', key: ws.apiKey })).status,
      ).toBe(404);
    },
  );

  it('answers 404 for an unknown id of the right shape', async () => {
    expect((await get(ws.apiKey, 'f'.repeat(32))).status).toBe(404);
  });

  it.each([
    ['GET', '/api/v1/endpoints'],
    ['POST', '/api/v1/endpoints'],
    ['GET', `/api/v1/endpoints/${'a'.repeat(32)}`],
    ['PATCH', `/api/v1/endpoints/${'a'.repeat(32)}`],
    ['DELETE', `/api/v1/endpoints/${'a'.repeat(32)}`],
  ])('%s %s answers 401 without a credential or with an unknown one', async (method, path) => {
    const body = method === 'POST' || method === 'PATCH' ? { name: 'n', url: PUBLIC_URL } : undefined;
    expect((await api.request(path, { method, body })).status).toBe(401);
    const forged = `evds_sk_${'0'.repeat(64)}`;
    expect((await api.request(path, { method, body, key: forged })).status).toBe(401);
    expect((await api.request(path, { method, body, session: 'f'.repeat(64) })).status).toBe(401);
  });
});

describe('network policy', () => {
  it.each([
    ['a private address', 'https://10.0.0.1/hook', /10\.0\.0\.1 is not public \(private\)/],
    ['the metadata address', 'https://169.254.169.254/latest', /not public \(link-local\)/],
    ['localhost', 'https://localhost/', /localhost/],
    ['an IPv4-mapped private address', 'https://[::ffff:192.168.1.1]/', /not public/],
  ])('refuses %s with 422 url_refused and the reason', async (_name, url, reason) => {
    const r = await create(ws.apiKey, { name: 'n', url });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('url_refused');
    expect(r.body.error).toMatch(/^url: refused by the network policy: /);
    expect(r.body.error).toMatch(reason);
  });

  it('refuses a private URL in a PATCH and keeps the old one', async () => {
    const { id } = await newEndpoint();
    const r = await patch(ws.apiKey, id, { url: 'https://192.168.0.10/' });
    expect(r.status).toBe(422);
    expect((await get(ws.apiKey, id)).body.endpoint.url).toBe(PUBLIC_URL);
  });

  describe('without the test loopback allowance', () => {
    let strict: TestApi;
    let sws: TestWorkspace;
    beforeAll(async () => {
      strict = await startTestApi({ NETGUARD_ALLOW_CIDRS: '' });
      sws = await seedWorkspace(strict.database.db);
    });
    afterAll(() => strict.stop());

    it.each(['https://127.0.0.1:8443/hook', 'https://2130706433/hook', 'https://[::1]/hook'])(
      'refuses the loopback URL %s with 422',
      async (url) => {
        const r = await strict.request('/api/v1/endpoints', { key: sws.apiKey, body: { name: 'n', url } });
        expect(r.status).toBe(422);
        expect(r.body.code).toBe('url_refused');
        expect(r.body.error).toMatch(/loopback/);
      },
    );

    it('accepts a public address and refuses a PATCH to loopback', async () => {
      const created = await strict.request<{ id: string }>('/api/v1/endpoints', {
        key: sws.apiKey,
        body: { name: 'n', url: PUBLIC_URL },
      });
      expect(created.status).toBe(200);
      const r = await strict.request(`/api/v1/endpoints/${created.body.id}`, {
        method: 'PATCH',
        key: sws.apiKey,
        body: { url: 'https://127.0.0.1/' },
      });
      expect(r.status).toBe(422);
    });
  });
});
