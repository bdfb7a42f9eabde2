// Proves every ingest rejection over real HTTP against the ingest service as its own process: each
// answers its documented status with `{error, code}` and writes no item and no usage record. Also the
// per-target sliding-window limit (exact message, Retry-After), inbound signatures, and Idempotency-Key:
// 50 concurrent requests with one key make exactly one item and one usage record.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setBillingStatus } from '@evds/db';
import { signInbound } from '@evds/ingest-core';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

let stack: Stack;
let ws: TestWorkspace;
let other: TestWorkspace;
let webhook: string;
let filtered: string;
let mailbox: string;

const RATE_LIMIT = 60;

beforeAll(async () => {
  stack = await startStack({ services: ['api', 'ingest'], env: { INGEST_RATE_LIMIT: String(RATE_LIMIT) } });
  ws = await seedWorkspace(stack.db);
  other = await seedWorkspace(stack.db);
  webhook = await createTarget(ws, { kind: 'webhook', name: 'w', url: 'https://127.0.0.1:9/hook' });
  mailbox = await createTarget(ws, { kind: 'mailbox', name: 'm' });
  const ep = await stack.api<{ id: string }>('/api/v1/endpoints', {
    key: ws.apiKey,
    body: { name: 'only orders', url: 'https://127.0.0.1:9/orders', event_types: ['order.created'] },
  });
  filtered = ep.body.id;
});
afterAll(() => stack.stop());

async function createTarget(w: TestWorkspace, body: Record<string, unknown>): Promise<string> {
  const r = await stack.api<{ target: { id: string } }>('/api/v1/targets', { key: w.apiKey, body });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.target.id;
}

async function written(): Promise<number> {
  const r = await sql<{ n: number }>`
    select (select count(*) from events) + (select count(*) from mailbox_messages) + (select count(*) from usage_records) as n`.execute(
    stack.db,
  );
  return Number(r.rows[0]?.n);
}

/** Sends a request that must be refused and checks that nothing at all was written. */
async function expectRefused(
  path: string,
  opts: Parameters<Stack['ingest']>[1],
  status: number,
  code?: string,
) {
  const before = await written();
  const r = await stack.ingest(path, opts);
  expect([r.status, r.body?.code]).toEqual([status, code ?? r.body?.code]);
  expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
  expect(await written()).toBe(before);
  return r;
}

describe('credentials', () => {
  it('no credential: 401', () => expectRefused(`/e/${webhook}`, { body: { a: 1 } }, 401));
  it('malformed Authorization: 401', () =>
    expectRefused(`/e/${webhook}`, { body: { a: 1 }, headers: { authorization: 'Token x' } }, 401));
  it('unknown key: 401', () =>
    expectRefused(`/e/${webhook}`, { body: { a: 1 }, key: `evds_sk_${'a'.repeat(64)}` }, 401));
  it('a session token instead of a key: 401', () =>
    expectRefused(
      `/e/${webhook}`,
      { body: { a: 1 }, headers: { 'x-session-token': 'a'.repeat(64) } },
      401,
      'wrong_credential_kind',
    ));
  it("another organization's target: 404", () =>
    expectRefused(`/t/${webhook}`, { body: { a: 1 }, key: other.apiKey }, 404));
  it('an unknown target: 404', () =>
    expectRefused(`/t/${'0'.repeat(32)}`, { body: { a: 1 }, key: ws.apiKey }, 404));
  it.each(['x', '0'.repeat(33), 'ZZ'.repeat(16)])('a target id of the wrong shape (%s): 404', (id) =>
    expectRefused(`/t/${id}`, { body: { a: 1 }, key: ws.apiKey }, 404),
  );
  it('a mailbox on the legacy /e/ route: 404', () =>
    expectRefused(`/e/${mailbox}`, { body: { a: 1 }, key: ws.apiKey }, 404));
});

describe('targets and billing', () => {
  it.each(['suspended', 'pending'] as const)('billing %s: 402', async (status) => {
    const w = await seedWorkspace(stack.db);
    const t = await createTarget(w, { kind: 'webhook', name: 'w', url: 'https://127.0.0.1:9/x' });
    await setBillingStatus(stack.db, w.orgId, status);
    await expectRefused(`/t/${t}`, { body: { a: 1 }, key: w.apiKey }, 402);
  });

  it('a disabled target: 409', async () => {
    const t = await createTarget(ws, { kind: 'webhook', name: 'off', url: 'https://127.0.0.1:9/x' });
    await stack.api(`/api/v1/targets/${t}`, { method: 'PATCH', key: ws.apiKey, body: { enabled: false } });
    await expectRefused(`/t/${t}`, { body: { a: 1 }, key: ws.apiKey }, 409, 'target_disabled');
  });

  it('a deleted target: 404', async () => {
    const t = await createTarget(ws, { kind: 'webhook', name: 'gone', url: 'https://127.0.0.1:9/x' });
    await stack.api(`/api/v1/targets/${t}`, { method: 'DELETE', key: ws.apiKey });
    await expectRefused(`/t/${t}`, { body: { a: 1 }, key: ws.apiKey }, 404);
  });
});

describe('bodies and headers', () => {
  it('malformed JSON: 400', () =>
    expectRefused(`/e/${webhook}`, { body: '{"a":', key: ws.apiKey }, 400, 'invalid_json'));
  it('an array on /e/: 400', () => expectRefused(`/e/${webhook}`, { body: [1, 2], key: ws.apiKey }, 400));
  it('no body: 400', () => expectRefused(`/t/${webhook}`, { method: 'POST', key: ws.apiKey }, 400));
  it('text/plain: 415', () =>
    expectRefused(
      `/e/${webhook}`,
      { body: '{"a":1}', key: ws.apiKey, headers: { 'content-type': 'text/plain' } },
      415,
    ));
  it("over the target's max_payload_bytes: 413", () =>
    expectRefused(
      `/t/${webhook}`,
      { body: { big: 'x'.repeat(262_144) }, key: ws.apiKey },
      413,
      'payload_too_large',
    ));
  it('over the service body limit: 413', () =>
    expectRefused(
      `/t/${webhook}`,
      { body: { big: 'x'.repeat(1_100_000) }, key: ws.apiKey },
      413,
      'payload_too_large',
    ));
  it.each(['', 'ünïcode', 'tab\there', 'x'.repeat(201)])(
    'an event_type that cannot travel as a header (%j): 400',
    (type) => expectRefused(`/e/${webhook}`, { body: { event_type: type }, key: ws.apiKey }, 400),
  );
  it('a non-string event_type: 400', () =>
    expectRefused(`/e/${webhook}`, { body: { event_type: 5 }, key: ws.apiKey }, 400));
  it.each([['x'.repeat(129)], ['has space'], ['semi;colon'], ['']])('X-Correlation-ID %j: 400', (id) =>
    expectRefused(
      `/e/${webhook}`,
      { body: { a: 1 }, key: ws.apiKey, headers: { 'x-correlation-id': id } },
      400,
    ),
  );
  it('an event type outside the endpoint filter: 422', () =>
    expectRefused(
      `/e/${filtered}`,
      { body: { event_type: 'order.deleted' }, key: ws.apiKey },
      422,
      'event_type_filtered',
    ));
  it('no event type on a filtered endpoint: 422', () =>
    expectRefused(`/e/${filtered}`, { body: { a: 1 }, key: ws.apiKey }, 422));

  it('a listed event type passes the filter, from the header or the body', async () => {
    expect(
      (await stack.ingest(`/e/${filtered}`, { body: { event_type: 'order.created' }, key: ws.apiKey }))
        .status,
    ).toBe(202);
    expect(
      (
        await stack.ingest(`/e/${filtered}`, {
          body: { a: 1 },
          key: ws.apiKey,
          headers: { 'x-event-type': 'order.created' },
        })
      ).status,
    ).toBe(202);
  });
});

describe('rate limit', () => {
  it(`allows ${RATE_LIMIT} requests per window per target, then 429 with the exact message and Retry-After`, async () => {
    const t = await createTarget(ws, { kind: 'mailbox', name: 'limited' });
    const statuses = await Promise.all(
      Array.from({ length: RATE_LIMIT }, () =>
        stack.ingest(`/t/${t}`, { body: { a: 1 }, key: ws.apiKey }).then((r) => r.status),
      ),
    );
    expect(statuses.every((s) => s === 202)).toBe(true);
    const r = await expectRefused(`/t/${t}`, { body: { a: 1 }, key: ws.apiKey }, 429);
    expect(r.body).toEqual({ error: 'rate limit exceeded for this endpoint', code: 'rate_limited' });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    const another = await createTarget(ws, { kind: 'mailbox', name: 'unlimited' });
    expect((await stack.ingest(`/t/${another}`, { body: { a: 1 }, key: ws.apiKey })).status).toBe(202);
  });
});

describe('inbound signatures', () => {
  let endpoint: string;
  let secret: string;

  beforeAll(async () => {
    const created = await stack.api<{ id: string }>('/api/v1/endpoints', {
      key: ws.apiKey,
      body: { name: 'signed', url: 'https://127.0.0.1:9/s' },
    });
    endpoint = created.body.id;
    const on = await stack.api<{ endpoint: { inbound_secret: string } }>(`/api/v1/endpoints/${endpoint}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { verify_inbound_signatures: true },
    });
    secret = on.body.endpoint.inbound_secret;
    expect(secret).toEqual(expect.any(String));
  });

  const body = '{"signed":true}';
  const now = () => Math.floor(Date.now() / 1000);

  it('missing headers: 403', () => expectRefused(`/e/${endpoint}`, { body, key: ws.apiKey }, 403));
  it('a wrong signature: 403', () =>
    expectRefused(
      `/e/${endpoint}`,
      {
        body,
        key: ws.apiKey,
        headers: { 'x-service-timestamp': String(now()), 'x-service-signature': `v1=${'0'.repeat(64)}` },
      },
      403,
    ));
  it('a timestamp more than 5 minutes off: 403', () => {
    const ts = now() - 301;
    return expectRefused(
      `/e/${endpoint}`,
      {
        body,
        key: ws.apiKey,
        headers: {
          'x-service-timestamp': String(ts),
          'x-service-signature': signInbound(secret, Buffer.from(body), ts),
        },
      },
      403,
    );
  });
  it('a signature over another body: 403', () => {
    const ts = now();
    return expectRefused(
      `/e/${endpoint}`,
      {
        body,
        key: ws.apiKey,
        headers: {
          'x-service-timestamp': String(ts),
          'x-service-signature': signInbound(secret, Buffer.from('{}'), ts),
        },
      },
      403,
    );
  });
  it('a correct signature: 202', async () => {
    const ts = now();
    const r = await stack.ingest(`/e/${endpoint}`, {
      body,
      key: ws.apiKey,
      headers: {
        'x-service-timestamp': String(ts),
        'x-service-signature': signInbound(secret, Buffer.from(body), ts),
      },
    });
    expect(r.status).toBe(202);
  });
});

describe('Idempotency-Key', () => {
  it('a repeat answers 202 with the original item and writes nothing; another body is 409', async () => {
    const t = await createTarget(ws, { kind: 'mailbox', name: 'idem' });
    const first = await stack.ingest<{ id: string; status: string }>(`/t/${t}`, {
      body: { n: 1 },
      key: ws.apiKey,
      headers: { 'idempotency-key': 'k-1' },
    });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await written();
    const again = await stack.ingest<{ id: string }>(`/t/${t}`, {
      body: { n: 1 },
      key: ws.apiKey,
      headers: { 'idempotency-key': 'k-1' },
    });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await written()).toBe(before);
    await expectRefused(
      `/t/${t}`,
      { body: { n: 2 }, key: ws.apiKey, headers: { 'idempotency-key': 'k-1' } },
      409,
      'idempotency_conflict',
    );
  });

  it('50 concurrent requests with one key make exactly one item and one usage record', async () => {
    const t = await createTarget(ws, { kind: 'webhook', name: 'idem-50', url: 'https://127.0.0.1:9/x' });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        stack.ingest<{ id: string }>(`/t/${t}`, {
          body: { once: true },
          key: ws.apiKey,
          headers: { 'idempotency-key': 'same' },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(202));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
    const events = await stack.db.selectFrom('events').select('id').where('target_id', '=', t).execute();
    const usage = await stack.db
      .selectFrom('usage_records')
      .select('id')
      .where('item_id', '=', results[0]?.body.id ?? '')
      .execute();
    expect(events).toHaveLength(1);
    expect(usage).toHaveLength(1);
  });

  it('keys are scoped per target', async () => {
    const a = await createTarget(ws, { kind: 'mailbox', name: 'scope-a' });
    const b = await createTarget(ws, { kind: 'mailbox', name: 'scope-b' });
    const ra = await stack.ingest<{ id: string }>(`/t/${a}`, {
      body: { n: 1 },
      key: ws.apiKey,
      headers: { 'idempotency-key': 'shared' },
    });
    const rb = await stack.ingest<{ id: string }>(`/t/${b}`, {
      body: { n: 1 },
      key: ws.apiKey,
      headers: { 'idempotency-key': 'shared' },
    });
    expect(ra.body.id).not.toBe(rb.body.id);
  });
});
