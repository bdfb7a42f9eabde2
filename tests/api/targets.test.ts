// Proves the unified target routes over real HTTP against the API on its own database: webhook and
// mailbox targets are created (201 {target}; a webhook's Standard Webhooks secret appears once, a
// mailbox has neither url nor secret), an a2a body without its card URL or auth is a 400 naming the
// field (a2a creation against a real agent is proven in tests/e2e/a2a.test.ts), GET/PATCH/
// DELETE work on every kind and never show a secret; a legacy endpoint and a webhook target are the
// same row in two shapes; signing-secret rotation round-trips (new secret once, the old one kept as
// previous and then dropped, both columns only ever encrypted, and the delivery worker's read returns
// both decrypted), also after the encryption key itself is rotated; rotation is refused on a mailbox;
// other organizations' ids, deleted ids and ids of the wrong shape are 404 everywhere; bad bodies are
// 400 naming the field (413 over the limit); and webhook URLs pass the network policy.
import { createDecipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getSigningSecrets } from '@evds/db';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { Webhook } from 'standardwebhooks';

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
/** A target nothing was attempted on: its health as every new target shows it. */
const FRESH_HEALTH = {
  status: 'unknown',
  failing_since: null,
  last_success_at: null,
  last_failure_at: null,
  consecutive_failures: 0,
  circuit: 'closed',
  next_probe_at: null,
};

interface Target {
  id: string;
  kind: 'webhook' | 'mailbox' | 'a2a';
  name: string;
  description: string;
  enabled: boolean;
  created_at: number;
  updated_at: number;
  url?: string;
  signing_scheme?: string;
  has_previous_signing_secret?: boolean;
  secret?: string;
  disabled_reason?: string | null;
  health?: Record<string, unknown>;
}
type TargetBody = { target: Target; error?: string; code?: string };
type Rotated = { secret: string; has_previous_signing_secret: boolean; code?: string; error?: string };

const createTarget = (key: string, body: unknown) =>
  api.request<TargetBody>('/api/v1/targets', { key, body });
const get = (key: string, id: string) => api.request<TargetBody>(`/api/v1/targets/${id}`, { key });
const patch = (key: string, id: string, body: unknown) =>
  api.request<TargetBody>(`/api/v1/targets/${id}`, { method: 'PATCH', key, body });
const del = (key: string, id: string) => api.request(`/api/v1/targets/${id}`, { method: 'DELETE', key });
const rotate = (key: string, id: string) =>
  api.request<Rotated>(`/api/v1/targets/${id}/signing-secret/rotate`, { method: 'POST', key });
const dropPrevious = (key: string, id: string) =>
  api.request<{ has_previous_signing_secret: boolean; code?: string }>(
    `/api/v1/targets/${id}/signing-secret/previous`,
    { method: 'DELETE', key },
  );
const list = (key: string) => api.request<{ targets: Target[] }>('/api/v1/targets', { key });

async function newWebhook(name = 'hooks'): Promise<{ id: string; secret: string }> {
  const r = await createTarget(ws.apiKey, { kind: 'webhook', name, url: PUBLIC_URL });
  expect(r.status).toBe(201);
  return { id: r.body.target.id, secret: r.body.target.secret ?? '' };
}
async function newMailbox(name = 'inbox'): Promise<string> {
  const r = await createTarget(ws.apiKey, { kind: 'mailbox', name });
  expect(r.status).toBe(201);
  return r.body.target.id;
}

/** Opens an envelope with the test's own code: the stored format is the contract, not our helper. */
const opener = (encryptionKeys: string) => {
  const keys = new Map(
    encryptionKeys.split(',').map((e) => {
      const [kid = '', b64 = ''] = e.split(':');
      return [kid, Buffer.from(b64, 'base64')] as const;
    }),
  );
  return {
    open(envelope: string, at: { id: string }): string {
      const [version = '', kid = '', iv = '', tag = '', ct = ''] = envelope.split('.');
      const key = keys.get(kid);
      if (!key) throw new Error(`no key ${kid}`);
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      // Bound to the target; only signing secrets are opened here (both columns have that purpose).
      d.setAAD(Buffer.from(`${version}.${kid}.signing.${at.id}`));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    },
  };
};

const secretColumns = (id: string) =>
  api.database.db
    .selectFrom('targets')
    .select(['signing_secret', 'previous_signing_secret', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('create', () => {
  it('creates a webhook target: 201 {target} with a Standard Webhooks secret, once', async () => {
    const r = await createTarget(ws.apiKey, {
      kind: 'webhook',
      name: 'Billing hooks',
      url: PUBLIC_URL,
      description: 'to billing',
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      target: {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        kind: 'webhook',
        name: 'Billing hooks',
        description: 'to billing',
        enabled: true,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
        disabled_reason: null,
        health: FRESH_HEALTH,
        url: PUBLIC_URL,
        signing_scheme: 'standard-webhooks-v1',
        has_previous_signing_secret: false,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      },
    });
    // The secret works with the official library: a receiver can verify what we sign.
    const secret = r.body.target.secret ?? '';
    const wh = new Webhook(secret);
    const sent = new Date();
    const signature = wh.sign('msg_1', sent, '{"a":1}');
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(sent.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(wh.verify('{"a":1}', headers)).toEqual({ a: 1 });

    const one = await get(ws.apiKey, r.body.target.id);
    expect(one.status).toBe(200);
    const withoutSecret: Target = { ...r.body.target };
    delete withoutSecret.secret;
    expect(one.body).toEqual({ target: withoutSecret });
    expect(one.text).not.toContain(secret);
    expect((await list(ws.apiKey)).text).not.toContain(secret);
  });

  it('creates a mailbox target with no url and no secret', async () => {
    const r = await createTarget(ws.apiKey, { kind: 'mailbox', name: 'Agent inbox' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      target: {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        kind: 'mailbox',
        name: 'Agent inbox',
        description: '',
        enabled: true,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
        disabled_reason: null,
        health: FRESH_HEALTH,
      },
    });
    const stored = await secretColumns(r.body.target.id);
    expect(stored.signing_secret).toBeNull();
    expect((await get(ws.apiKey, r.body.target.id)).body.target).toEqual(r.body.target);
  });

  it('refuses a mailbox with a url (400 naming url)', async () => {
    const r = await createTarget(ws.apiKey, { kind: 'mailbox', name: 'm', url: PUBLIC_URL });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/url/);
  });

  it.each([
    ['no agent_card_url', { auth: { type: 'none' } }, /^agent_card_url: /],
    [
      'an http agent_card_url',
      { agent_card_url: 'http://93.184.215.14/card', auth: { type: 'none' } },
      /^agent_card_url: must be an https URL/,
    ],
    ['no auth', { agent_card_url: 'https://93.184.215.14/card' }, /^auth: /],
    [
      'a bearer auth without token',
      { agent_card_url: 'https://93.184.215.14/card', auth: { type: 'bearer' } },
      /^auth\.token: /,
    ],
  ])(
    'refuses an a2a target with %s (400 naming the field) before fetching anything',
    async (_n, extra, message) => {
      const r = await createTarget(ws.apiKey, { kind: 'a2a', name: 'agent', ...extra });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.error).toMatch(message);
    },
  );

  it.each([
    ['no kind', { name: 'n' }, /^kind: must be one of "webhook", "mailbox", "a2a"$/],
    ['an unknown kind', { kind: 'queue', name: 'n' }, /^kind: must be one of/],
    ['a numeric kind', { kind: 1, name: 'n' }, /^kind: /],
    ['no name', { kind: 'mailbox' }, /^name: /],
    ['a 201-character name', { kind: 'mailbox', name: 'x'.repeat(201) }, /^name: /],
    ['a numeric name', { kind: 'webhook', name: 1, url: PUBLIC_URL }, /^name: /],
    ['a webhook without url', { kind: 'webhook', name: 'n' }, /^url: /],
    [
      'an http url',
      { kind: 'webhook', name: 'n', url: 'http://93.184.215.14/' },
      /^url: must be an https URL/,
    ],
    [
      'a malformed url',
      { kind: 'webhook', name: 'n', url: 'https://' },
      /^url: must be a valid absolute URL/,
    ],
    ['a long description', { kind: 'mailbox', name: 'n', description: 'd'.repeat(2001) }, /^description: /],
    ['an unknown field', { kind: 'mailbox', name: 'n', enabled: false }, /enabled/],
    ['a string body', 'just a string', /^body: /],
  ])('refuses %s with 400 naming the field and creates nothing', async (_name, body, message) => {
    const before = (await list(ws.apiKey)).body.targets.length;
    const r = await createTarget(ws.apiKey, typeof body === 'string' ? JSON.stringify(body) : body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
    expect((await list(ws.apiKey)).body.targets).toHaveLength(before);
  });

  it('refuses malformed JSON with 400 and an oversize body with 413', async () => {
    const bad = await createTarget(ws.apiKey, '{"kind": "mailbox", "name": }');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_json');
    const huge = await createTarget(ws.apiKey, {
      kind: 'mailbox',
      name: 'n',
      description: 'x'.repeat(1 << 20),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
  });
});

describe('list, update and delete', () => {
  it('lists every kind of the caller’s targets, oldest first, without secrets', async () => {
    const hook = await newWebhook('listed hook');
    const box = await newMailbox('listed box');
    const theirs = await createTarget(other.apiKey, { kind: 'mailbox', name: 'theirs' });
    const r = await list(ws.apiKey);
    expect(r.status).toBe(200);
    const ids = r.body.targets.map((t) => t.id);
    expect(ids.slice(-2)).toEqual([hook.id, box]);
    expect(ids).not.toContain(theirs.body.target.id);
    expect(r.body.targets.find((t) => t.id === box)).not.toHaveProperty('url');
    expect(r.text).not.toContain(hook.secret);
    expect(r.text).not.toMatch(/"secret"|"signing_secret"|"previous_signing_secret"|v2\.test1\./);
  });

  it('changes only the fields sent, on every kind', async () => {
    const hook = await newWebhook('before');
    const r = await patch(ws.apiKey, hook.id, { name: 'after' });
    expect(r.status).toBe(200);
    expect(r.body.target).toMatchObject({
      id: hook.id,
      kind: 'webhook',
      name: 'after',
      description: '',
      enabled: true,
      url: PUBLIC_URL,
      has_previous_signing_secret: false,
    });
    expect(r.body.target).not.toHaveProperty('secret');
    const r2 = await patch(ws.apiKey, hook.id, { description: 'now described', enabled: false });
    expect(r2.body.target).toMatchObject({ name: 'after', description: 'now described', enabled: false });
    expect((await get(ws.apiKey, hook.id)).body.target).toEqual(r2.body.target);

    const box = await newMailbox();
    const m = await patch(ws.apiKey, box, { enabled: false });
    expect(m.status).toBe(200);
    expect(m.body.target).toMatchObject({ kind: 'mailbox', enabled: false, name: 'inbox' });
  });

  it.each([
    ['a url (not changeable here)', { url: PUBLIC_URL }, /url/],
    ['a kind', { kind: 'mailbox' }, /kind/],
    ['an empty name', { name: '' }, /^name: /],
    ['enabled as a number', { enabled: 1 }, /^enabled: /],
    ['a numeric description', { description: 3 }, /^description: /],
  ])('PATCH refuses %s with 400 naming the field', async (_name, body, message) => {
    const hook = await newWebhook('fixed');
    const r = await patch(ws.apiKey, hook.id, body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
    expect((await get(ws.apiKey, hook.id)).body.target).toMatchObject({ name: 'fixed', enabled: true });
  });

  it('deletes: {deleted: true}, then 404 on every route, gone from lists, row kept', async () => {
    const hook = await newWebhook();
    const d = await del(ws.apiKey, hook.id);
    expect(d.status).toBe(200);
    expect(d.body).toEqual({ deleted: true });
    expect((await get(ws.apiKey, hook.id)).status).toBe(404);
    expect((await patch(ws.apiKey, hook.id, { name: 'x' })).status).toBe(404);
    expect((await del(ws.apiKey, hook.id)).status).toBe(404);
    expect((await rotate(ws.apiKey, hook.id)).status).toBe(404);
    expect((await dropPrevious(ws.apiKey, hook.id)).status).toBe(404);
    expect((await api.request(`/api/v1/endpoints/${hook.id}`, { key: ws.apiKey })).status).toBe(404);
    expect((await list(ws.apiKey)).body.targets.map((t) => t.id)).not.toContain(hook.id);
    expect((await secretColumns(hook.id)).deleted_at).toBeInstanceOf(Date);
    expect(
      await getSigningSecrets(api.database.db, ws.orgId, hook.id, opener(api.env.ENCRYPTION_KEYS ?? '')),
    ).toBeUndefined();

    const box = await newMailbox();
    expect((await del(ws.apiKey, box)).status).toBe(200);
    expect((await get(ws.apiKey, box)).status).toBe(404);
  });
});

describe('endpoints and targets are the same rows', () => {
  it('an endpoint is a webhook target, and a webhook target is an endpoint', async () => {
    const ep = await api.request<{ id: string }>('/api/v1/endpoints', {
      key: ws.apiKey,
      body: { name: 'legacy', url: PUBLIC_URL, description: 'both ways', event_types: ['a'] },
    });
    const asTarget = await get(ws.apiKey, ep.body.id);
    const asEndpoint = await api.request<{ endpoint: Record<string, unknown> }>(
      `/api/v1/endpoints/${ep.body.id}`,
      {
        key: ws.apiKey,
      },
    );
    expect(asTarget.body.target).toEqual({
      id: ep.body.id,
      kind: 'webhook',
      name: 'legacy',
      description: 'both ways',
      enabled: true,
      created_at: asEndpoint.body.endpoint.created_at,
      updated_at: asEndpoint.body.endpoint.updated_at,
      disabled_reason: null,
      health: FRESH_HEALTH,
      url: PUBLIC_URL,
      signing_scheme: 'standard-webhooks-v1',
      has_previous_signing_secret: false,
    });

    const hook = await newWebhook('unified');
    await patch(ws.apiKey, hook.id, { enabled: false });
    const seen = await api.request<{ endpoint: Record<string, unknown> }>(`/api/v1/endpoints/${hook.id}`, {
      key: ws.apiKey,
    });
    expect(seen.status).toBe(200);
    expect(seen.body.endpoint).toMatchObject({
      id: hook.id,
      name: 'unified',
      url: PUBLIC_URL,
      event_types: '[]',
      enabled: false,
      max_payload_bytes: 262144,
    });
    const endpoints = await api.request<{ endpoints: { id: string }[] }>('/api/v1/endpoints', {
      key: ws.apiKey,
    });
    expect(endpoints.body.endpoints.map((e) => e.id)).toContain(hook.id);
  });

  it('a mailbox is not an endpoint', async () => {
    const box = await newMailbox();
    expect((await api.request(`/api/v1/endpoints/${box}`, { key: ws.apiKey })).status).toBe(404);
    expect((await api.request(`/api/v1/endpoints/${box}`, { method: 'DELETE', key: ws.apiKey })).status).toBe(
      404,
    );
    expect((await get(ws.apiKey, box)).status).toBe(200);
  });
});

describe('signing-secret rotation', () => {
  it('round-trips: new secret once, old kept as previous, previous dropped; columns stay encrypted', async () => {
    const box = opener(api.env.ENCRYPTION_KEYS ?? '');
    const { id, secret: first } = await newWebhook('rotating');

    const r1 = await rotate(ws.apiKey, id);
    expect(r1.status).toBe(200);
    expect(r1.body).toEqual({ secret: expect.stringMatching(/^whsec_/), has_previous_signing_secret: true });
    const second = r1.body.secret;
    expect(second).not.toBe(first);

    const shown = await get(ws.apiKey, id);
    expect(shown.body.target.has_previous_signing_secret).toBe(true);
    expect(shown.text).not.toContain(second);
    expect(shown.text).not.toContain(first);

    const stored = await secretColumns(id);
    for (const column of [stored.signing_secret, stored.previous_signing_secret]) {
      expect(column).toMatch(/^v2\.test1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(column).not.toContain(first);
      expect(column).not.toContain(second);
      expect(column).not.toContain(first.slice(6, 20));
    }
    expect(await getSigningSecrets(api.database.db, ws.orgId, id, box)).toEqual({
      current: second,
      previous: first,
    });

    // A second rotation replaces the previous secret: only the last two are valid.
    const third = (await rotate(ws.apiKey, id)).body.secret;
    expect(await getSigningSecrets(api.database.db, ws.orgId, id, box)).toEqual({
      current: third,
      previous: second,
    });

    const dropped = await dropPrevious(ws.apiKey, id);
    expect(dropped.status).toBe(200);
    expect(dropped.body).toEqual({ has_previous_signing_secret: false });
    expect((await get(ws.apiKey, id)).body.target.has_previous_signing_secret).toBe(false);
    expect((await secretColumns(id)).previous_signing_secret).toBeNull();
    expect(await getSigningSecrets(api.database.db, ws.orgId, id, box)).toEqual({
      current: third,
      previous: null,
    });
    // Dropping again is harmless.
    expect((await dropPrevious(ws.apiKey, id)).body).toEqual({ has_previous_signing_secret: false });
  });

  it('is refused on a mailbox with 400 wrong_target_kind', async () => {
    const box = await newMailbox();
    const r = await rotate(ws.apiKey, box);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('wrong_target_kind');
    expect(r.body.error).toMatch(/only webhook targets have signing secrets/);
    const d = await dropPrevious(ws.apiKey, box);
    expect(d.status).toBe(400);
    expect(d.body.code).toBe('wrong_target_kind');
  });

  it("is not the signing secret of anyone else's target", async () => {
    const theirs = await createTarget(other.apiKey, { kind: 'webhook', name: 't', url: PUBLIC_URL });
    const id = theirs.body.target.id;
    const before = await secretColumns(id);
    expect((await rotate(ws.apiKey, id)).status).toBe(404);
    expect((await dropPrevious(ws.apiKey, id)).status).toBe(404);
    expect(await secretColumns(id)).toEqual(before);
    expect(
      await getSigningSecrets(api.database.db, ws.orgId, id, opener(api.env.ENCRYPTION_KEYS ?? '')),
    ).toBeUndefined();
  });

  describe('after the encryption key is rotated', () => {
    let rotated: TestApi;
    beforeAll(async () => {
      // The same database, now with a new first key and the old one still listed.
      rotated = await startTestApi({
        DATABASE_URL: api.database.url,
        ENCRYPTION_KEYS: `test2:${randomBytes(32).toString('base64')},${api.env.ENCRYPTION_KEYS ?? ''}`,
      });
    });
    afterAll(() => rotated.stop());

    it('seals new secrets under the new key while the old envelope still opens', async () => {
      const { id, secret: old } = await newWebhook('key rotation');
      const r = await rotated.request<Rotated>(`/api/v1/targets/${id}/signing-secret/rotate`, {
        method: 'POST',
        key: ws.apiKey,
      });
      expect(r.status).toBe(200);
      const stored = await secretColumns(id);
      expect(stored.signing_secret).toMatch(/^v2\.test2\./);
      expect(stored.previous_signing_secret).toMatch(/^v2\.test1\./);
      expect(
        await getSigningSecrets(api.database.db, ws.orgId, id, opener(rotated.env.ENCRYPTION_KEYS ?? '')),
      ).toEqual({ current: r.body.secret, previous: old });
    });
  });
});

describe('isolation and credentials', () => {
  const routes = (id: string): [string, string, unknown][] => [
    ['GET', `/api/v1/targets/${id}`, undefined],
    ['PATCH', `/api/v1/targets/${id}`, { name: 'taken' }],
    ['DELETE', `/api/v1/targets/${id}`, undefined],
    ['POST', `/api/v1/targets/${id}/signing-secret/rotate`, undefined],
    ['DELETE', `/api/v1/targets/${id}/signing-secret/previous`, undefined],
  ];

  it("answers 404 for another organization's target on every route and leaves it untouched", async () => {
    const theirs = await createTarget(other.apiKey, { kind: 'webhook', name: 'theirs', url: PUBLIC_URL });
    const id = theirs.body.target.id;
    for (const [method, path, body] of routes(id))
      expect([method, path, (await api.request(path, { method, body, key: ws.apiKey })).status]).toEqual([
        method,
        path,
        404,
      ]);
    const still = await get(other.apiKey, id);
    expect(still.status).toBe(200);
    expect(still.body.target).toMatchObject({ name: 'theirs', has_previous_signing_secret: false });
  });

  it.each(['nope', '0'.repeat(31), 'ABCDEF'.repeat(5) + 'AB', '0'.repeat(33), '%00'])(
    'answers 404 for an id of the wrong shape (%s) on every route',
    async (id) => {
      for (const [method, path, body] of routes(id))
        expect([method, path, (await api.request(path, { method, body, key: ws.apiKey })).status]).toEqual([
          method,
          path,
          404,
        ]);
    },
  );

  it('answers 401 without a credential, with an unknown key and with an unknown session', async () => {
    const id = 'a'.repeat(32);
    const all: [string, string, unknown][] = [
      ['GET', '/api/v1/targets', undefined],
      ['POST', '/api/v1/targets', { kind: 'mailbox', name: 'n' }],
      ...routes(id),
    ];
    for (const [method, path, body] of all) {
      for (const cred of [
        {},
        { key: `evds_sk_${'0'.repeat(64)}` },
        { session: 'f'.repeat(64) },
        { key: 'garbage' },
      ])
        expect([method, path, (await api.request(path, { method, body, ...cred })).status]).toEqual([
          method,
          path,
          401,
        ]);
    }
  });

  it('works with a session token', async () => {
    const session = (
      await api.request<{ session_token: string }>('/api/v1/auth/login', {
        body: { email: ws.email, password: ws.password },
      })
    ).body.session_token;
    const r = await api.request<TargetBody>('/api/v1/targets', {
      session,
      body: { kind: 'mailbox', name: 's' },
    });
    expect(r.status).toBe(201);
    expect((await api.request(`/api/v1/targets/${r.body.target.id}`, { session })).status).toBe(200);
  });
});

describe('network policy', () => {
  it.each([
    ['a private address', 'https://172.16.0.1/', /not public \(private\)/],
    ['localhost', 'https://localhost/hook', /localhost/],
    ['an unresolvable single-label host', 'https://intranet/hook', /fully qualified/],
  ])('refuses %s with 422 url_refused', async (_name, url, reason) => {
    const r = await createTarget(ws.apiKey, { kind: 'webhook', name: 'n', url });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('url_refused');
    expect(r.body.error).toMatch(reason);
  });

  describe('without the test loopback allowance', () => {
    let strict: TestApi;
    let sws: TestWorkspace;
    beforeAll(async () => {
      strict = await startTestApi({ NETGUARD_ALLOW_CIDRS: '' });
      sws = await seedWorkspace(strict.database.db);
    });
    afterAll(() => strict.stop());

    it('refuses a URL on 127.0.0.1 and accepts a public address', async () => {
      const refused = await strict.request<TargetBody>('/api/v1/targets', {
        key: sws.apiKey,
        body: { kind: 'webhook', name: 'n', url: 'https://127.0.0.1:9443/hook' },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('url_refused');
      expect(refused.body.error).toMatch(/127\.0\.0\.1 is not public \(loopback\)/);
      const ok = await strict.request('/api/v1/targets', {
        key: sws.apiKey,
        body: { kind: 'webhook', name: 'n', url: PUBLIC_URL },
      });
      expect(ok.status).toBe(201);
    });
  });

  it('accepts a loopback URL where the configuration allows it (the test default)', async () => {
    const r = await createTarget(ws.apiKey, {
      kind: 'webhook',
      name: 'n',
      url: 'https://127.0.0.1:9443/hook',
    });
    expect(r.status).toBe(201);
  });
});
