// Proves the usage ledger end to end, with api, ingest and the delivery worker as separate processes:
// every newly accepted item writes exactly one usage record whatever its kind (webhook through /t/ and
// /e/, mailbox, a2a) and GET /api/v1/usage counts them, equal to the ledger; retries of a webhook that
// never answers, a replay, an idempotent duplicate, rejected requests (400, 409, 413, 422) and mailbox
// reads, claims and acks add nothing. Also the billing gates: a `pending` or `suspended` workspace
// gets 402 on /t/, /e/ and API-key creation, writes nothing, and still reads its usage, organization,
// events and billing status. The a2a target is written into the database (its creation needs a live
// A2A agent, proven in a2a.test.ts); its item goes through the real /t/ route.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setBillingStatus } from '@evds/db';
import { newId } from '@evds/domain';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { createWebhookTarget, usageCount, waitForStatus } from './helpers.ts';

let stack: Stack;
let ws: TestWorkspace;
let webhook: string;
let endpoint: string;
let mailbox: string;
let a2a: string;

const NEVER_ANSWERS = 'https://127.0.0.1:1/';

interface Usage {
  accepted_events: number;
  estimated_units: number;
  estimated_cents: number;
  pending_meter_events: number;
}
type Accepted = { id: string; status: string };

const usage = async (w: TestWorkspace = ws): Promise<Usage> => {
  const r = await stack.api<{ usage: Usage }>('/api/v1/usage', { key: w.apiKey });
  expect(r.status).toBe(200);
  return r.body.usage;
};

/** GET /api/v1/usage agrees with the ledger and shows `n` accepted items, all still pending. */
async function expectUsage(n: number): Promise<void> {
  expect(await usageCount(stack, ws.orgId)).toBe(n);
  expect(await usage()).toEqual({
    period_start: expect.any(Number),
    period_end: expect.any(Number),
    accepted_events: n,
    estimated_units: Math.ceil(n / 1000),
    estimated_cents: Math.ceil(n / 1000) * 10,
    pending_meter_events: n,
  });
}

const send = (path: string, body: unknown, headers: Record<string, string> = {}, key = ws.apiKey) =>
  stack.ingest<Accepted>(path, { key, body, headers });

beforeAll(async () => {
  stack = await startStack({ env: { RETRY_DELAYS_MS: '50,50,50,50,50' } });
  ws = await seedWorkspace(stack.db, { billingStatus: 'active' });
  webhook = (await createWebhookTarget(stack, ws, NEVER_ANSWERS)).id;
  const ep = await stack.api<{ id: string }>('/api/v1/endpoints', {
    key: ws.apiKey,
    body: { name: 'orders', url: NEVER_ANSWERS, event_types: ['order.created'] },
  });
  endpoint = ep.body.id;
  const mb = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'inbox' },
  });
  mailbox = mb.body.target.id;
  a2a = newId();
  await sql`insert into targets (id, org_id, kind, name, url)
            values (${a2a}, ${ws.orgId}, 'a2a', 'agent', 'https://127.0.0.1:1/a2a')`.execute(stack.db);
});
afterAll(() => stack.stop());

describe('usage over every kind of accepted item', () => {
  let first: Accepted;
  let message: Accepted;

  it('starts at zero', () => expectUsage(0));

  it('counts one record per newly accepted item of every kind', async () => {
    const accepted = [
      await send(`/t/${webhook}`, { n: 1 }, { 'idempotency-key': 'order-1' }),
      await send(`/t/${webhook}`, { n: 2 }),
      await send(`/e/${endpoint}`, { event_type: 'order.created', n: 3 }),
      await send(`/t/${mailbox}`, { n: 4 }),
      await send(`/t/${mailbox}`, { n: 5 }),
      await send(`/t/${a2a}`, { n: 6 }),
    ];
    expect(accepted.map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 202]);
    first = accepted[0]?.body as Accepted;
    message = accepted[3]?.body as Accepted;
    await expectUsage(6);
  });

  it('adds nothing for an idempotent duplicate or a reused key with another body', async () => {
    const dup = await send(`/t/${webhook}`, { n: 1 }, { 'idempotency-key': 'order-1' });
    expect([dup.status, dup.headers.get('idempotent-replayed'), dup.body.id]).toEqual([
      202,
      'true',
      first.id,
    ]);
    const conflict = await send(`/t/${webhook}`, { n: 'other' }, { 'idempotency-key': 'order-1' });
    expect(conflict.status).toBe(409);
    await expectUsage(6);
  });

  it('adds nothing for rejected requests', async () => {
    const statuses = [
      (await send(`/t/${webhook}`, '{"not json', { 'content-type': 'application/json' })).status,
      (await send(`/e/${endpoint}`, { event_type: 'user.deleted' })).status,
      (await send(`/t/${webhook}`, { pad: 'x'.repeat(300_000) })).status,
      (await send(`/t/${webhook}`, { n: 7 }, {}, 'evds_sk_' + '0'.repeat(64))).status,
      (await send(`/t/${newId()}`, { n: 8 })).status,
    ];
    const disabled = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'mailbox', name: 'off' },
    });
    await stack.api(`/api/v1/targets/${disabled.body.target.id}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { enabled: false },
    });
    statuses.push((await send(`/t/${disabled.body.target.id}`, { n: 9 })).status);
    expect(statuses).toEqual([400, 422, 413, 401, 404, 409]);
    await expectUsage(6);
  });

  it('adds nothing for the retries of a webhook that never answers, nor for a replay', async () => {
    const expired = await waitForStatus(stack, ws, first.id, 'EXPIRED');
    expect(expired.delivery_attempts).toHaveLength(6);
    await expectUsage(6);
    const replay = await stack.api<{ id: string; source_event_id: string }>(
      `/api/v1/events/${first.id}/replay`,
      {
        method: 'POST',
        key: ws.apiKey,
      },
    );
    expect([replay.status, replay.body.source_event_id]).toEqual([200, first.id]);
    const replayed = await waitForStatus(stack, ws, replay.body.id, 'EXPIRED');
    expect(replayed.delivery_attempts).toHaveLength(6);
    await expectUsage(6);
  });

  it('adds nothing for mailbox listing, reading, claiming and acknowledging', async () => {
    const list = await stack.api<{ messages: unknown[] }>(`/api/v1/mailboxes/${mailbox}/messages`, {
      key: ws.apiKey,
    });
    expect([list.status, list.body.messages.length]).toEqual([200, 2]);
    expect((await stack.api(`/api/v1/mailbox-messages/${message.id}`, { key: ws.apiKey })).status).toBe(200);
    const claim = await stack.api(`/api/v1/mailbox-messages/${message.id}/claim`, {
      method: 'POST',
      key: ws.apiKey,
    });
    expect(claim.status).toBe(200);
    const ack = await stack.api(`/api/v1/mailbox-messages/${message.id}/ack`, {
      method: 'POST',
      key: ws.apiKey,
    });
    expect([ack.status, (ack.body as { message?: { state?: string } }).message?.state]).toEqual([
      200,
      'ACKNOWLEDGED',
    ]);
    await expectUsage(6);
  });

  it('counts a thousand and first item as a second unit', async () => {
    // 994 more through ingest would run into the per-target rate limit: written into the ledger directly.
    await sql`insert into usage_records (org_id, item_id, item_kind)
              select ${ws.orgId}, md5(random()::text || i::text), 'webhook' from generate_series(1, 994) i`.execute(
      stack.db,
    );
    await expectUsage(1000);
    expect((await send(`/t/${mailbox}`, { n: 1001 })).status).toBe(202);
    await expectUsage(1001);
    expect(await usage()).toMatchObject({ estimated_units: 2, estimated_cents: 20 });
  });
});

describe.each(['pending', 'suspended'] as const)('a %s workspace', (status) => {
  let w: TestWorkspace;
  let target: string;
  let session: string;

  beforeAll(async () => {
    w = await seedWorkspace(stack.db, { billingStatus: 'active' });
    target = (await createWebhookTarget(stack, w, NEVER_ANSWERS)).id;
    await setBillingStatus(stack.db, w.orgId, status);
    const login = await stack.api<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: w.email, password: w.password },
    });
    session = login.body.session_token;
  });

  it('gets 402 on ingestion (/t/ and /e/) and writes nothing', async () => {
    for (const path of [`/t/${target}`, `/e/${target}`]) {
      const r = await send(path, { event_type: 'x' }, {}, w.apiKey);
      expect([r.status, (r.body as unknown as { code: string }).code]).toEqual([402, 'payment_required']);
    }
    expect(await usageCount(stack, w.orgId)).toBe(0);
  });

  it('gets 402 on API-key creation', async () => {
    for (const cred of [{ key: w.apiKey }, { session }]) {
      const r = await stack.api('/api/v1/keys', { ...cred, body: { name: 'blocked' } });
      expect([r.status, r.body.code]).toEqual([402, 'payment_required']);
    }
  });

  it('still reads its usage, organization, events and billing status', async () => {
    const reads = await Promise.all([
      stack.api('/api/v1/usage', { key: w.apiKey }),
      stack.api('/api/v1/usage', { session }),
      stack.api('/api/v1/orgs', { key: w.apiKey }),
      stack.api('/api/v1/events', { key: w.apiKey }),
      stack.api('/api/v1/keys', { key: w.apiKey }),
      stack.api('/api/v1/billing', { session }),
      stack.api('/api/v1/billing/reconciliation', { session }),
    ]);
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect((reads[0]?.body as { usage: Usage }).usage.accepted_events).toBe(0);
    expect((reads[2]?.body as { org: { billing_status: string } }).org.billing_status).toBe(status);
    expect(reads[5]?.body).toMatchObject({ status, billing_enabled: false });
  });
});
