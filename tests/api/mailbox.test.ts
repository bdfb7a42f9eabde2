// Proves mailboxes over real HTTP against the API and an ingest service on their own database: `/t/`
// accepts an item into a mailbox (202 {id, target_id, kind, status: UNREAD}, stored UNREAD with its
// retention, one usage record) under the same auth, billing, size, rate-limit and idempotency rules as
// every kind; the four consumer routes list (oldest first, cursor paging, default 50 and max 100, filter
// by the state computed when read), read (payload byte for byte), claim and acknowledge with API keys
// only; a lapsed lease shows UNREAD and retention EXPIRED before any job runs; every 409 of decisions §3
// (held by another key, ack without the active claim, claim of an acknowledged or expired message); 50
// keys claiming one message at once get exactly one 200 and the row records the winner; listing and
// reading change no row and write no usage; /api/v1/stats counts messages by computed state; other
// organizations' ids, deleted mailboxes, non-mailbox targets and ids of the wrong shape are 404; bad
// credentials are 401 (a session token included); bad queries and bodies are 400.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expireMailboxMessages, insertItem, setBillingStatus, type Db } from '@evds/db';
import { newId } from '@evds/domain';
import {
  seedWorkspace,
  startTestApi,
  startTestIngest,
  type Client,
  type TestApi,
  type TestIngest,
  type TestWorkspace,
} from '@evds/testkit';
import { sql } from 'kysely';

const RATE_LIMIT = 20;
const KEYS = 50;

let api: TestApi;
let ingestService: TestIngest;
let ingest: Client;
let db: Db;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi({ API_KEYS_PER_ORG: String(KEYS + 5), INGEST_RATE_LIMIT: String(RATE_LIMIT) });
  ingestService = await startTestIngest(api.env);
  ingest = ingestService.request;
  db = api.database.db;
  ws = await seedWorkspace(db);
  other = await seedWorkspace(db);
});
afterAll(async () => {
  await ingestService.stop();
  await api.stop();
});

interface Message {
  id: string;
  mailbox_id: string;
  state: 'UNREAD' | 'CLAIMED' | 'ACKNOWLEDGED' | 'EXPIRED';
  event_type: string | null;
  correlation_id: string | null;
  payload: unknown;
  payload_size: number;
  created_at: number;
  expires_at: number;
  claimed_at: number | null;
  claimed_by_key_id: string | null;
  lease_expires_at: number | null;
  acknowledged_at: number | null;
}
type One = { message: Message; error?: string; code?: string };
type Page = { messages: Message[]; next_cursor: string | null; error?: string; code?: string };

const now = () => Math.floor(Date.now() / 1000);

async function newMailbox(w: TestWorkspace = ws): Promise<string> {
  const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: w.apiKey,
    body: { kind: 'mailbox', name: 'inbox' },
  });
  expect(r.status).toBe(201);
  return r.body.target.id;
}

/** A message accepted through ingest, over HTTP. */
async function send(mailbox: string, body: string | object = { n: 1 }, w: TestWorkspace = ws) {
  const r = await ingest<{ id: string }>(`/t/${mailbox}`, { key: w.apiKey, body });
  if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${r.text}`);
  return r.body.id;
}

/** Many messages at once, written the way ingest writes them (past the per-target rate limit). */
async function seed(mailbox: string, n: number, w: TestWorkspace = ws): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await insertItem(db, {
      id: newId(),
      orgId: w.orgId,
      targetId: mailbox,
      kind: 'mailbox',
      eventType: null,
      correlationId: null,
      payload: Buffer.from(`{"i": ${i}}`),
      requestId: null,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    ids.push(r.outcome === 'created' ? r.id : '');
  }
  return ids;
}

const list = (mailbox: string, query = '', key = ws.apiKey) =>
  api.request<Page>(`/api/v1/mailboxes/${mailbox}/messages${query}`, { key });
const get = (id: string, key = ws.apiKey) => api.request<One>(`/api/v1/mailbox-messages/${id}`, { key });
const claim = (id: string, key = ws.apiKey) =>
  api.request<One>(`/api/v1/mailbox-messages/${id}/claim`, { method: 'POST', key });
const ack = (id: string, key = ws.apiKey) =>
  api.request<One>(`/api/v1/mailbox-messages/${id}/ack`, { method: 'POST', key });

/** A further API key of the workspace, through the keys route. */
async function newKey(w: TestWorkspace = ws): Promise<{ id: string; key: string }> {
  const r = await api.request<{ id: string; key: string }>('/api/v1/keys', {
    key: w.apiKey,
    body: { name: 'consumer' },
  });
  expect(r.status).toBe(201);
  return r.body;
}

const row = (id: string) =>
  db.selectFrom('mailbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function written(): Promise<number> {
  const r = await sql<{ n: number }>`
    select (select count(*) from mailbox_messages) + (select count(*) from usage_records) as n`.execute(db);
  return Number(r.rows[0]?.n);
}

describe('/t/ into a mailbox', () => {
  let mailbox: string;
  beforeAll(async () => {
    mailbox = await newMailbox();
  });

  it('answers 202 {id, target_id, kind, status: UNREAD}, stores the bytes UNREAD for 7 days, one usage record', async () => {
    const body = '{"b": 2,  "a":[1.50, "é"]}';
    const r = await ingest<Record<string, unknown>>(`/t/${mailbox}`, {
      key: ws.apiKey,
      body,
      headers: { 'x-event-type': 'order.created', 'x-correlation-id': 'corr-1' },
    });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      target_id: mailbox,
      kind: 'mailbox',
      status: 'UNREAD',
    });
    const id = r.body.id as string;
    const stored = await row(id);
    expect(stored).toMatchObject({
      state: 'UNREAD',
      org_id: ws.orgId,
      mailbox_id: mailbox,
      claimed_at: null,
    });
    expect(stored.payload?.toString()).toBe(body);
    expect((stored.expires_at.getTime() - stored.created_at.getTime()) / 1000).toBeCloseTo(7 * 24 * 3600, -1);
    const usage = await db.selectFrom('usage_records').selectAll().where('item_id', '=', id).execute();
    expect(usage).toEqual([expect.objectContaining({ org_id: ws.orgId, item_kind: 'mailbox' })]);

    const read = await get(id);
    expect(read.status).toBe(200);
    expect(read.text).toContain(`"payload":${body}`);
    expect(read.body.message).toMatchObject({
      id,
      mailbox_id: mailbox,
      state: 'UNREAD',
      event_type: 'order.created',
      correlation_id: 'corr-1',
      payload_size: Buffer.byteLength(body),
    });
  });

  /** Sends a request that must be refused and checks that nothing at all was written. */
  async function refused(path: string, opts: Parameters<Client>[1], status: number, code?: string) {
    const before = await written();
    const r = await ingest(path, opts);
    expect([r.status, r.body?.code]).toEqual([status, code ?? r.body?.code]);
    expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    expect(await written()).toBe(before);
    return r;
  }

  it('refuses without a key, with a session token, with an unknown key (401)', async () => {
    await refused(`/t/${mailbox}`, { body: { a: 1 } }, 401);
    await refused(`/t/${mailbox}`, { body: { a: 1 }, session: 'a'.repeat(64) }, 401, 'wrong_credential_kind');
    await refused(`/t/${mailbox}`, { body: { a: 1 }, key: `evds_sk_${'0'.repeat(64)}` }, 401);
  });

  it("refuses another organization's mailbox, a deleted one (404) and a disabled one (409)", async () => {
    await refused(`/t/${mailbox}`, { body: { a: 1 }, key: other.apiKey }, 404);
    const gone = await newMailbox();
    await api.request(`/api/v1/targets/${gone}`, { method: 'DELETE', key: ws.apiKey });
    await refused(`/t/${gone}`, { body: { a: 1 }, key: ws.apiKey }, 404);
    const off = await newMailbox();
    await api.request(`/api/v1/targets/${off}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { enabled: false },
    });
    await refused(`/t/${off}`, { body: { a: 1 }, key: ws.apiKey }, 409, 'target_disabled');
  });

  it.each(['suspended', 'pending'] as const)('refuses while billing is %s (402)', async (status) => {
    const w = await seedWorkspace(db);
    const m = await newMailbox(w);
    await setBillingStatus(db, w.orgId, status);
    await refused(`/t/${m}`, { body: { a: 1 }, key: w.apiKey }, 402);
  });

  it("refuses a body over the mailbox's max_payload_bytes (413) and malformed JSON (400)", async () => {
    await refused(
      `/t/${mailbox}`,
      { body: { big: 'x'.repeat(262_144) }, key: ws.apiKey },
      413,
      'payload_too_large',
    );
    await refused(`/t/${mailbox}`, { body: '{"a":', key: ws.apiKey }, 400, 'invalid_json');
  });

  it(`allows ${RATE_LIMIT} items per window per mailbox, then 429 with the spec's message`, async () => {
    const m = await newMailbox();
    const statuses = await Promise.all(
      Array.from({ length: RATE_LIMIT }, () =>
        ingest(`/t/${m}`, { key: ws.apiKey, body: { a: 1 } }).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array(RATE_LIMIT).fill(202));
    const r = await refused(`/t/${m}`, { body: { a: 1 }, key: ws.apiKey }, 429);
    expect(r.body).toEqual({ error: 'rate limit exceeded for this endpoint', code: 'rate_limited' });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('an Idempotency-Key repeat answers the original message and writes nothing; another body is 409', async () => {
    const m = await newMailbox();
    const headers = { 'idempotency-key': 'once' };
    const first = await ingest<{ id: string }>(`/t/${m}`, { key: ws.apiKey, body: { n: 1 }, headers });
    expect(first.status).toBe(202);
    const before = await written();
    const again = await ingest<{ id: string }>(`/t/${m}`, { key: ws.apiKey, body: { n: 1 }, headers });
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([
      202,
      first.body,
      'true',
    ]);
    expect(await written()).toBe(before);
    await refused(`/t/${m}`, { body: { n: 2 }, key: ws.apiKey, headers }, 409, 'idempotency_conflict');
    expect((await list(m)).body.messages.map((x) => x.id)).toEqual([first.body.id]);
  });
});

describe('listing and reading', () => {
  it('lists oldest first, 50 by default, at most 100, with an `after` cursor until next_cursor is null', async () => {
    const m = await newMailbox();
    const ids = await seed(m, 55);
    const first = await list(m);
    expect(first.status).toBe(200);
    expect(first.body.messages.map((x) => x.id)).toEqual(ids.slice(0, 50));
    expect(first.body.next_cursor).toBe(ids[49]);
    const second = await list(m, `?after=${first.body.next_cursor}`);
    expect(second.body.messages.map((x) => x.id)).toEqual(ids.slice(50));
    expect(second.body.next_cursor).toBeNull();
    expect((await list(m, '?limit=100')).body).toMatchObject({ next_cursor: null });
    expect((await list(m, '?limit=100')).body.messages).toHaveLength(55);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const p: Page = (await list(m, `?limit=7${cursor ? `&after=${cursor}` : ''}`)).body;
      pages.push(...p.messages.map((x) => x.id));
      cursor = p.next_cursor;
    } while (cursor);
    expect(pages).toEqual(ids);
    expect((await list(m, `?after=${ids[54]}`)).body).toEqual({ messages: [], next_cursor: null });
  });

  it('splices every payload byte for byte into the list', async () => {
    const m = await newMailbox();
    const bodies = ['{"x": 1.0}', '[ 1,2 ]', '{"nested":{"k":"v"},  "e":1e2}'];
    for (const b of bodies) await send(m, b);
    const r = await list(m);
    for (const b of bodies) expect(r.text).toContain(`"payload":${b},`);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?limit=-1', 'limit'],
    ['?status=unread', 'status'],
    ['?status=DELIVERED', 'status'],
    ['?status=UNREAD&status=CLAIMED', 'status'],
    ['?after=nope', 'after'],
    ['?after=' + '0'.repeat(32), 'after'],
    ['?page=2', 'query'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const m = await newMailbox();
    await send(m);
    const r = await list(m, query);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: expect.stringMatching(new RegExp(`^${field}`)),
      code: 'validation_failed',
    });
  });

  it('answers 400 for an `after` from another mailbox', async () => {
    const [a, b] = [await newMailbox(), await newMailbox()];
    const inB = await send(b);
    await send(a);
    expect((await list(a, `?after=${inB}`)).status).toBe(400);
  });

  it('shows and filters by the state computed when read; stats count the same states', async () => {
    const w = await seedWorkspace(db);
    const m = await newMailbox(w);
    const [unread, claimed, lapsed, acked, expired, ackedExpired] = await seed(m, 6, w);
    for (const id of [claimed, lapsed, acked, ackedExpired])
      expect((await claim(id!, w.apiKey)).status).toBe(200);
    for (const id of [acked, ackedExpired]) expect((await ack(id!, w.apiKey)).status).toBe(200);
    // Time passes without a write: the stored state stays as it was.
    await db
      .updateTable('mailbox_messages')
      .set({ lease_expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', lapsed!)
      .execute();
    await db
      .updateTable('mailbox_messages')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', 'in', [expired!, ackedExpired!])
      .execute();
    expect((await row(lapsed!)).state).toBe('CLAIMED');
    expect((await row(expired!)).state).toBe('UNREAD');

    const ids = async (status: string) =>
      (await list(m, `?status=${status}`, w.apiKey)).body.messages.map((x) => x.id);
    expect(await ids('UNREAD')).toEqual([unread, lapsed]);
    expect(await ids('CLAIMED')).toEqual([claimed]);
    expect(await ids('ACKNOWLEDGED')).toEqual([acked]);
    expect(await ids('EXPIRED')).toEqual([expired, ackedExpired]);

    const lapsedView = (await get(lapsed!, w.apiKey)).body.message;
    expect(lapsedView).toMatchObject({
      state: 'UNREAD',
      claimed_at: null,
      claimed_by_key_id: null,
      lease_expires_at: null,
    });
    const expiredView = await get(expired!, w.apiKey);
    expect(expiredView.body.message).toMatchObject({ state: 'EXPIRED', payload: null });
    expect(expiredView.text).toContain('"payload":null');
    expect((await get(ackedExpired!, w.apiKey)).body.message).toMatchObject({
      state: 'EXPIRED',
      payload: null,
      claimed_by_key_id: w.keyId,
      acknowledged_at: expect.any(Number),
    });

    const stats = await api.request<{ mailboxes: Record<string, number> }>('/api/v1/stats', {
      key: w.apiKey,
    });
    expect(stats.status).toBe(200);
    expect(stats.body.mailboxes).toEqual({ UNREAD: 2, CLAIMED: 1, ACKNOWLEDGED: 1, EXPIRED: 2 });
    const session = await api.request<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: w.email, password: w.password },
    });
    const bySession = await api.request<{ mailboxes: Record<string, number> }>('/api/v1/stats?window=1h', {
      session: session.body.session_token,
    });
    expect(bySession.body.mailboxes).toEqual(stats.body.mailboxes);
  });

  it('listing and reading change no row and write no usage', async () => {
    const m = await newMailbox();
    const [a, b, c] = await seed(m, 3);
    expect((await claim(b!)).status).toBe(200);
    expect((await claim(c!)).status).toBe(200);
    expect((await ack(c!)).status).toBe(200);
    const snapshot = async () => ({
      rows: await db.selectFrom('mailbox_messages').selectAll().orderBy('id').execute(),
      usage: await db.selectFrom('usage_records').selectAll().orderBy('id').execute(),
    });
    const before = await snapshot();
    for (const q of [
      '',
      '?status=UNREAD',
      '?status=CLAIMED',
      '?status=ACKNOWLEDGED',
      '?status=EXPIRED',
      '?limit=1',
    ])
      expect((await list(m, q)).status).toBe(200);
    for (const id of [a!, b!, c!]) expect((await get(id)).status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});

describe('claim and ack', () => {
  let m: string;
  beforeAll(async () => {
    m = await newMailbox();
  });

  it('claim: 200 CLAIMED under a 5-minute lease owned by the key; ack: 200 ACKNOWLEDGED; no usage', async () => {
    const id = await send(m, '{"job": 1}');
    const usage = await written();
    const c = await claim(id);
    expect(c.status).toBe(200);
    expect(c.text).toContain('"payload":{"job": 1}');
    expect(c.body.message).toMatchObject({
      id,
      state: 'CLAIMED',
      claimed_by_key_id: ws.keyId,
      acknowledged_at: null,
    });
    const { claimed_at, lease_expires_at } = c.body.message;
    expect(Math.abs((claimed_at ?? 0) - now())).toBeLessThanOrEqual(2);
    expect((lease_expires_at ?? 0) - (claimed_at ?? 0)).toBeGreaterThanOrEqual(299);
    expect((lease_expires_at ?? 0) - (claimed_at ?? 0)).toBeLessThanOrEqual(301);
    expect(await row(id)).toMatchObject({ state: 'CLAIMED', claimed_by_key_id: ws.keyId });

    const a = await ack(id);
    expect(a.status).toBe(200);
    expect(a.body.message).toMatchObject({
      id,
      state: 'ACKNOWLEDGED',
      claimed_at,
      claimed_by_key_id: ws.keyId,
      lease_expires_at: null,
      acknowledged_at: expect.any(Number),
    });
    expect((await row(id)).state).toBe('ACKNOWLEDGED');
    expect(await written()).toBe(usage);
    // The ack's answer may be lost: the same key repeating it gets the same answer.
    const again = await ack(id);
    expect([again.status, again.body.message]).toEqual([200, a.body.message]);
  });

  it('the holder claiming again extends the lease (200) and keeps claimed_at', async () => {
    const id = await send(m);
    const first = (await claim(id)).body.message;
    const stored = await row(id);
    await new Promise((r) => setTimeout(r, 1100));
    const second = await claim(id);
    expect(second.status).toBe(200);
    expect(second.body.message.claimed_at).toBe(first.claimed_at);
    expect(second.body.message.lease_expires_at).toBeGreaterThan(first.lease_expires_at ?? Infinity);
    const extended = await row(id);
    expect(extended.lease_expires_at!.getTime()).toBeGreaterThan(stored.lease_expires_at!.getTime() + 1000);
    expect(extended.claimed_at).toEqual(stored.claimed_at);
  });

  it('409: claim held by another key, ack by a key without the claim, ack of an unclaimed message', async () => {
    const k2 = await newKey();
    const id = await send(m);
    const unclaimedAck = await ack(id);
    expect([unclaimedAck.status, unclaimedAck.body.code]).toEqual([409, 'conflict']);
    expect((await claim(id)).status).toBe(200);
    const stolen = await claim(id, k2.key);
    expect([stolen.status, stolen.body]).toEqual([409, { error: expect.any(String), code: 'lease_held' }]);
    const wrongAck = await ack(id, k2.key);
    expect([wrongAck.status, wrongAck.body.code]).toEqual([409, 'lease_held']);
    expect(await row(id)).toMatchObject({
      state: 'CLAIMED',
      claimed_by_key_id: ws.keyId,
      acknowledged_at: null,
    });
  });

  it('409: claim of an ACKNOWLEDGED message (by anyone) and ack of it by another key', async () => {
    const k2 = await newKey();
    const id = await send(m);
    await claim(id);
    await ack(id);
    for (const key of [ws.apiKey, k2.key]) {
      const r = await claim(id, key);
      expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    }
    expect((await ack(id, k2.key)).status).toBe(409);
    expect((await row(id)).state).toBe('ACKNOWLEDGED');
  });

  it('409: claim and ack of a message past retention, though not yet expired in storage', async () => {
    const id = await send(m);
    await claim(id);
    await db
      .updateTable('mailbox_messages')
      .set({ expires_at: sql<Date>`now()` })
      .where('id', '=', id)
      .execute();
    for (const r of [await claim(id), await ack(id)])
      expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    expect((await row(id)).state).toBe('CLAIMED');
  });

  it('a lapsed lease: another key may claim, the old holder may not ack (409)', async () => {
    const k2 = await newKey();
    const id = await send(m);
    await claim(id);
    await db
      .updateTable('mailbox_messages')
      .set({ lease_expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', id)
      .execute();
    expect((await ack(id)).status).toBe(409);
    const taken = await claim(id, k2.key);
    expect(taken.status).toBe(200);
    expect(taken.body.message.claimed_by_key_id).toBe(k2.id);
    expect((await ack(id)).status).toBe(409);
    expect((await ack(id, k2.key)).status).toBe(200);
  });

  it(`${KEYS} keys claiming one message at once: exactly one 200, ${KEYS - 1} answers 409, the row records the winner`, async () => {
    const keys: { id: string; key: string }[] = [];
    for (let i = 0; i < KEYS; i++) keys.push(await newKey(other));
    const mailbox = await newMailbox(other);
    const id = await send(mailbox, { contested: true }, other);
    const results = await Promise.all(keys.map((k) => claim(id, k.key)));
    const won = results.flatMap((r, i) => (r.status === 200 ? [keys[i]!] : []));
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'lease_held')).toHaveLength(KEYS - 1);
    expect(await row(id)).toMatchObject({ state: 'CLAIMED', claimed_by_key_id: won[0]!.id });
    expect((await get(id, other.apiKey)).body.message.claimed_by_key_id).toBe(won[0]!.id);
  });
});

describe('isolation, credentials and validation', () => {
  let mine: string;
  let theirs: string;
  let theirMessage: string;
  beforeAll(async () => {
    mine = await newMailbox();
    await send(mine);
    theirs = await newMailbox(other);
    theirMessage = await send(theirs, { secret: 'theirs' }, other);
  });

  const messageRoutes = (id: string): [string, string][] => [
    ['GET', `/api/v1/mailbox-messages/${id}`],
    ['POST', `/api/v1/mailbox-messages/${id}/claim`],
    ['POST', `/api/v1/mailbox-messages/${id}/ack`],
  ];
  const expect404 = async (method: string, path: string, key = ws.apiKey) => {
    const r = await api.request(path, { method, key });
    expect([method, path, r.status, r.body.code]).toEqual([method, path, 404, 'not_found']);
  };

  it("answers 404 for another organization's mailbox and messages, and leaves them untouched", async () => {
    const before = await row(theirMessage);
    await expect404('GET', `/api/v1/mailboxes/${theirs}/messages`);
    for (const [method, path] of messageRoutes(theirMessage)) await expect404(method, path);
    expect(await row(theirMessage)).toEqual(before);
    expect((await get(theirMessage, other.apiKey)).body.message.state).toBe('UNREAD');
  });

  it('answers 404 for a deleted mailbox and for its messages', async () => {
    const m = await newMailbox();
    const id = await send(m);
    await api.request(`/api/v1/targets/${m}`, { method: 'DELETE', key: ws.apiKey });
    await expect404('GET', `/api/v1/mailboxes/${m}/messages`);
    for (const [method, path] of messageRoutes(id)) await expect404(method, path);
    expect((await row(id)).state).toBe('UNREAD');
  });

  it('answers 404 for a webhook target, an unknown id and event ids', async () => {
    const hook = await api.request<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'webhook', name: 'h', url: 'https://93.184.215.14/hook' },
    });
    await expect404('GET', `/api/v1/mailboxes/${hook.body.target.id}/messages`);
    await expect404('GET', `/api/v1/mailboxes/${'0'.repeat(32)}/messages`);
    for (const [method, path] of messageRoutes('0'.repeat(32))) await expect404(method, path);
    const event = await ingest<{ id: string }>(`/t/${hook.body.target.id}`, {
      key: ws.apiKey,
      body: { e: 1 },
    });
    expect(event.status).toBe(202);
    for (const [method, path] of messageRoutes(event.body.id)) await expect404(method, path);
  });

  it.each(['nope', '0'.repeat(31), '0'.repeat(33), 'ABCDEF'.repeat(5) + 'AB', '%00'])(
    'answers 404 for an id of the wrong shape (%s)',
    async (id) => {
      await expect404('GET', `/api/v1/mailboxes/${id}/messages`);
      for (const [method, path] of messageRoutes(id)) await expect404(method, path);
    },
  );

  it('answers 401 without a credential and with an unknown or malformed key; claim and ack refuse a session', async () => {
    const id = (await list(mine)).body.messages[0]!.id;
    const session = (
      await api.request<{ session_token: string }>('/api/v1/auth/login', {
        body: { email: ws.email, password: ws.password },
      })
    ).body.session_token;
    const routes: [string, string][] = [['GET', `/api/v1/mailboxes/${mine}/messages`], ...messageRoutes(id)];
    for (const [method, path] of routes) {
      // Reads take a key or a session (the dashboard shows messages); claim and ack take a key only.
      const keyOnly = method === 'POST';
      for (const [cred, code] of [
        [{}, keyOnly ? 'wrong_credential_kind' : 'unauthenticated'],
        [{ key: `evds_sk_${'0'.repeat(64)}` }, 'unauthenticated'],
        [{ key: 'garbage' }, 'unauthenticated'],
        [{ headers: { authorization: 'Token abc' } }, 'unauthenticated'],
        ...(keyOnly ? ([[{ session }, 'wrong_credential_kind']] as const) : []),
      ] as const) {
        const r = await api.request(path, { method, ...cred });
        expect([method, path, r.status, r.body.code]).toEqual([method, path, 401, code]);
      }
    }
    expect((await row(id)).state).toBe('UNREAD');
  });

  it('claim and ack take no fields: malformed JSON, wrong types and unknown fields are 400, other media 415', async () => {
    const id = (await list(mine)).body.messages[0]!.id;
    for (const path of [`/api/v1/mailbox-messages/${id}/claim`, `/api/v1/mailbox-messages/${id}/ack`]) {
      for (const body of ['{"a":', '[1]', '"x"', '{"lease_seconds": 5}']) {
        const r = await api.request(path, { method: 'POST', key: ws.apiKey, body });
        expect([path, body, r.status]).toEqual([path, body, 400]);
        expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
      }
      const text = await api.request(path, {
        method: 'POST',
        key: ws.apiKey,
        body: '{}',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status).toBe(415);
    }
    expect((await row(id)).state).toBe('UNREAD');
    expect((await claim(id)).status).toBe(200);
    expect(
      (await api.request(`/api/v1/mailbox-messages/${id}/ack`, { method: 'POST', key: ws.apiKey, body: {} }))
        .status,
    ).toBe(200);
  });
});

describe('retention in storage (the mailbox-retention job)', () => {
  it('expires messages past retention in bounded batches, drops their payload and touches nothing else', async () => {
    const m = await newMailbox();
    const [live, ...old] = await seed(m, 6);
    await db
      .updateTable('mailbox_messages')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', 'in', old)
      .execute();
    const due = async () =>
      (
        await db
          .selectFrom('mailbox_messages')
          .select('id')
          .where('state', '<>', 'EXPIRED')
          .where('expires_at', '<=', sql<Date>`now()`)
          .execute()
      ).length;
    const pending = await due();
    expect(pending).toBeGreaterThanOrEqual(old.length);
    const liveBefore = await row(live!);

    expect(await expireMailboxMessages(db, 2, 2)).toBe(4);
    let total = 4;
    for (let n = -1; n !== 0; total += n) n = await expireMailboxMessages(db, 2, 2);
    expect(total).toBe(pending);
    expect(await due()).toBe(0);
    for (const id of old) expect(await row(id)).toMatchObject({ state: 'EXPIRED', payload: null });
    expect(await row(live!)).toEqual(liveBefore);
    expect((await list(m, '?status=EXPIRED')).body.messages.map((x) => x.id)).toEqual(old);
  });
});
