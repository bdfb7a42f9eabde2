// Proves the usage and billing routes over real HTTP while live billing is disabled (the default):
// GET /api/v1/usage counts the current UTC month of the local ledger (nothing from the month before,
// nothing at or after the next month's first instant, nothing of another organization), estimates
// units and cents at 0, 1, 1000 and 1001 items (0 for exempt workspaces), counts every record as
// pending, and stays equal to a count of the ledger as records are reported and organizations deleted;
// the billing status object carries the published price; checkout and portal answer 503 whatever the
// body, invoices an empty list, reconciliation the local figures with nulls for the processor's; the
// processor webhook refuses everything, signed or not, and never answers 2xx; the session-only routes
// answer 401 to an API key.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setBillingStatus, type Db } from '@evds/db';
import type { BillingStatus } from '@evds/domain';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

let api: TestApi;
let db: Db;
let ws: TestWorkspace;
let session: string;

const SECRET = 'billing-webhook-test-secret';

interface Usage {
  period_start: number;
  period_end: number;
  accepted_events: number;
  estimated_units: number;
  estimated_cents: number;
  pending_meter_events: number;
}

/** This month's first instant and the next month's, in Unix seconds (UTC). */
function currentMonth(): { start: number; end: number } {
  const now = new Date();
  return {
    start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000,
    end: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000,
  };
}

async function login(w: TestWorkspace): Promise<string> {
  const r = await api.request<{ session_token: string }>('/api/v1/auth/login', {
    body: { email: w.email, password: w.password },
  });
  if (r.status !== 200) throw new Error(r.text);
  return r.body.session_token;
}

/** Usage records written straight into the ledger (the ingest path is proven in tests/e2e/usage.test.ts). */
async function addRecords(orgId: string, n: number, at: Date | null = null): Promise<void> {
  if (n === 0) return;
  await sql`
    insert into usage_records (org_id, item_id, item_kind, created_at)
    select ${orgId}, md5(random()::text || i::text), 'webhook', coalesce(${at}::timestamptz, now())
      from generate_series(1, ${n}::int) as i`.execute(db);
}

async function ledgerCount(orgId: string, from: number, to: number): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from usage_records
     where org_id = ${orgId} and created_at >= to_timestamp(${from}) and created_at < to_timestamp(${to})`.execute(
    db,
  );
  return r.rows[0]?.n ?? -1;
}

const usageOf = async (w: TestWorkspace) => {
  const r = await api.request<{ usage: Usage }>('/api/v1/usage', { key: w.apiKey });
  expect(r.status).toBe(200);
  return r.body.usage;
};

beforeAll(async () => {
  api = await startTestApi();
  db = api.database.db;
  ws = await seedWorkspace(db, { billingStatus: 'active' });
  session = await login(ws);
});
afterAll(() => api.stop());

describe('GET /api/v1/usage', () => {
  it('answers the usage object over the current UTC month, with a key or a session', async () => {
    const month = currentMonth();
    const expected = {
      usage: {
        period_start: month.start,
        period_end: month.end,
        accepted_events: 0,
        estimated_units: 0,
        estimated_cents: 0,
        pending_meter_events: 0,
      },
    };
    const byKey = await api.request('/api/v1/usage', { key: ws.apiKey });
    expect([byKey.status, byKey.body]).toEqual([200, expected]);
    const bySession = await api.request('/api/v1/usage', { session });
    expect([bySession.status, bySession.body]).toEqual([200, expected]);
  });

  it('needs a credential', async () => {
    expect((await api.request('/api/v1/usage')).status).toBe(401);
  });

  it.each([
    ['active', 0, 0, 0],
    ['active', 1, 1, 10],
    ['active', 1000, 1, 10],
    ['active', 1001, 2, 20],
    ['grace', 1001, 2, 20],
    ['exempt', 0, 0, 0],
    ['exempt', 1, 0, 0],
    ['exempt', 1000, 0, 0],
    ['exempt', 1001, 0, 0],
  ] as [BillingStatus, number, number, number][])(
    'estimates a %s workspace with %i items at %i units, %i cents',
    async (status, items, units, cents) => {
      const w = await seedWorkspace(db, { billingStatus: status });
      await addRecords(w.orgId, items);
      expect(await usageOf(w)).toMatchObject({
        accepted_events: items,
        estimated_units: units,
        estimated_cents: cents,
        pending_meter_events: items,
      });
    },
  );

  it("counts only this month's records of the caller's organization", async () => {
    const w = await seedWorkspace(db, { billingStatus: 'active' });
    const other = await seedWorkspace(db, { billingStatus: 'active' });
    const month = currentMonth();
    await addRecords(w.orgId, 3, new Date(month.start * 1000)); // the first instant counts
    await addRecords(w.orgId, 4, new Date(month.start * 1000 - 1)); // the month before does not
    await addRecords(w.orgId, 5, new Date(month.end * 1000)); // nor the next month's first instant
    await addRecords(w.orgId, 2);
    await addRecords(other.orgId, 7);
    const usage = await usageOf(w);
    expect(usage.accepted_events).toBe(5);
    expect(usage.accepted_events).toBe(await ledgerCount(w.orgId, month.start, month.end));
    expect((await usageOf(other)).accepted_events).toBe(7);
  });

  it('counts records reported to the processor as accepted but no longer pending', async () => {
    const w = await seedWorkspace(db, { billingStatus: 'active' });
    await addRecords(w.orgId, 30);
    await sql`
      update usage_records set reported_at = now()
       where id in (select id from usage_records where org_id = ${w.orgId} order by id limit 12)`.execute(db);
    expect(await usageOf(w)).toMatchObject({ accepted_events: 30, pending_meter_events: 18 });
    await sql`delete from usage_records where id in (
      select id from usage_records where org_id = ${w.orgId} order by id desc limit 5)`.execute(db);
    expect(await usageOf(w)).toMatchObject({ accepted_events: 25, pending_meter_events: 13 });
  });

  it('keeps no counters of a deleted organization', async () => {
    const w = await seedWorkspace(db, { billingStatus: 'active' });
    await addRecords(w.orgId, 10);
    await sql`delete from organizations where id = ${w.orgId}`.execute(db);
    const left = await sql<{ n: number }>`
      select count(*)::int as n from usage_monthly where org_id = ${w.orgId}`.execute(db);
    expect(left.rows[0]?.n).toBe(0);
  });
});

describe('GET /api/v1/billing', () => {
  it('answers the billing status object with the published price', async () => {
    const r = await api.request('/api/v1/billing', { session });
    expect([r.status, r.body]).toEqual([
      200,
      {
        status: 'active',
        billing_enabled: false,
        grace_ends_at: null,
        has_payment_method: false,
        currency: 'usd',
        price_cents: 10,
        unit_size: 1000,
      },
    ]);
  });

  it('shows when a grace period ends', async () => {
    const w = await seedWorkspace(db, { billingStatus: 'active' });
    const ends = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    await setBillingStatus(db, w.orgId, 'grace', ends);
    const r = await api.request('/api/v1/billing', { session: await login(w) });
    expect(r.body).toMatchObject({ status: 'grace', grace_ends_at: Math.floor(ends.getTime() / 1000) });
  });
});

describe('while live billing is disabled', () => {
  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    [
      'return URLs and a price',
      {
        success_url: 'https://evil.example/ok',
        cancel_url: 'https://evil.example/no',
        price_cents: 0,
        quantity: 1,
      },
    ],
  ])('checkout answers 503 billing_disabled with %s', async (_n, body) => {
    const r = await api.request('/api/v1/billing/checkout', { method: 'POST', session, body });
    expect([r.status, r.body]).toEqual([503, { error: expect.any(String), code: 'billing_disabled' }]);
  });

  it('checkout refuses a body that is not a JSON object (400)', async () => {
    const r = await api.request('/api/v1/billing/checkout', { method: 'POST', session, body: '[1]' });
    expect(r.status).toBe(400);
  });

  it('portal answers 503 billing_disabled', async () => {
    const r = await api.request('/api/v1/billing/portal', { session });
    expect([r.status, r.body]).toEqual([503, { error: expect.any(String), code: 'billing_disabled' }]);
  });

  it('invoices answer an empty list', async () => {
    const r = await api.request('/api/v1/billing/invoices', { session });
    expect([r.status, r.body]).toEqual([200, { invoices: [], billing_enabled: false }]);
  });

  it('reconciliation answers the local figures and nulls for the processor', async () => {
    const w = await seedWorkspace(db, { billingStatus: 'active' });
    await addRecords(w.orgId, 1500);
    const month = currentMonth();
    const r = await api.request('/api/v1/billing/reconciliation', { session: await login(w) });
    expect([r.status, r.body]).toEqual([
      200,
      {
        status: 'disabled',
        period_start: month.start,
        period_end: month.end,
        local: { accepted_events: 1500, pending_meter_events: 1500, estimated_units: 2, estimated_cents: 20 },
        processor: null,
        differences: null,
        invoice: null,
      },
    ]);
  });

  const sign = (secret: string, body: string) => {
    const t = Math.floor(Date.now() / 1000);
    return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  };
  const event = JSON.stringify({ type: 'invoice.paid', customer_id: 'cus_123' });

  it.each([
    ['an unsigned event', () => ({ body: event })],
    [
      'an event with a made-up signature',
      () => ({ body: event, headers: { 'x-billing-signature': sign('guess', event) } }),
    ],
    ['an empty request', () => ({ method: 'POST' })],
    ['a body that is not JSON', () => ({ body: 'hello', headers: { 'content-type': 'text/plain' } })],
    ['malformed JSON', () => ({ body: '{"type":' })],
    ['an API key', () => ({ body: event, key: ws.apiKey })],
    ['a session', () => ({ body: event, session })],
  ])('the processor webhook refuses %s with 503', async (_n, opts) => {
    const r = await api.request('/api/v1/billing/webhook', opts());
    expect([r.status, r.body]).toEqual([503, { error: expect.any(String), code: 'billing_disabled' }]);
  });

  it('the processor webhook refuses even a correctly signed event while billing is disabled', async () => {
    const withSecret = await startTestApi({ BILLING_WEBHOOK_SECRET: SECRET });
    try {
      const r = await withSecret.request('/api/v1/billing/webhook', {
        body: event,
        headers: { 'x-billing-signature': sign(SECRET, event) },
      });
      expect([r.status, r.body.code]).toEqual([503, 'billing_disabled']);
    } finally {
      await withSecret.stop();
    }
  });
});

describe('session-only routes', () => {
  const routes: [string, string][] = [
    ['GET', '/api/v1/billing'],
    ['POST', '/api/v1/billing/checkout'],
    ['GET', '/api/v1/billing/portal'],
    ['GET', '/api/v1/billing/invoices'],
    ['GET', '/api/v1/billing/reconciliation'],
  ];

  it.each(routes)('%s %s answers 401 to an API key', async (method, path) => {
    const r = await api.request(path, { method, key: ws.apiKey, ...(method === 'POST' ? { body: {} } : {}) });
    expect([r.status, r.body]).toEqual([
      401,
      { error: 'this route requires a session token', code: 'wrong_credential_kind' },
    ]);
  });

  it.each(routes)(
    '%s %s answers 401 without a credential or with an unknown session',
    async (method, path) => {
      expect((await api.request(path, { method })).status).toBe(401);
      expect((await api.request(path, { method, session: 'f'.repeat(64) })).status).toBe(401);
    },
  );
});
