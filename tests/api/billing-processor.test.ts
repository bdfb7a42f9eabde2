// Proves the billing routes as they will behave once live billing is enabled, over real HTTP on the real
// database, with a payment-processor double in place of the processor (which cannot be reached here):
// checkout takes nothing from the body, creates and keeps the processor customer and refuses exempt
// workspaces; the portal needs a customer; invoices are the processor's, at most 12; reconciliation
// answers not_connected, pending, mismatch and reconciled with the differences it found; and the
// processor webhook answers 2xx only to a correctly signed, fresh request, and then re-reads that
// customer's invoices and applies the billing move. With no secret configured it refuses everything.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { billingRoutes, type PaymentProcessor, type ProcessorInvoice } from '@evds/billing';
import { getBillingAccount, setProcessorCustomer, type Db } from '@evds/db';
import type { BillingStatus } from '@evds/domain';
import { createHttpApp, dbCredentialStore, listen, mountRoutes, type RunningServer } from '@evds/http';
import { createLogger } from '@evds/runtime';
import {
  client,
  seedWorkspace,
  startTestApi,
  type Client,
  type TestApi,
  type TestWorkspace,
} from '@evds/testkit';
import { Router } from 'express';
import { sql } from 'kysely';

const SECRET = 'processor-webhook-secret';
const GRACE = 3 * 24 * 3600;

let api: TestApi;
let db: Db;
const servers: RunningServer[] = [];

/** Processor double: invoices and meter per customer, and the inputs it was called with. */
const invoices = new Map<string, ProcessorInvoice[]>();
const meter = new Map<string, number>();
const checkouts: unknown[] = [];
let customers = 0;
const processor: PaymentProcessor = {
  enabled: true,
  createCheckout: (input) => {
    checkouts.push(input);
    return Promise.resolve({
      url: 'https://processor.example/checkout/cs_1',
      customerId: input.customerId ?? `cus_${++customers}`,
    });
  },
  createPortal: (customer) => Promise.resolve({ url: `https://processor.example/portal/${customer}` }),
  listInvoices: (customer, limit) => Promise.resolve((invoices.get(customer) ?? []).slice(0, limit)),
  meterSummary: (customer) => Promise.resolve({ events: meter.get(customer) ?? 0 }),
  reportUsage: () => Promise.resolve(),
};

const month = () => {
  const now = new Date();
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
};

const invoice = (n: number, status: ProcessorInvoice['status'], subtotalCents = 10): ProcessorInvoice => ({
  id: `in_${n}`,
  number: `EVDS-${n}`,
  createdAt: new Date(Date.now() - n * 1000),
  status,
  subtotalCents,
  amountDueCents: subtotalCents,
  amountPaidCents: status === 'paid' ? subtotalCents : 0,
  currency: 'usd',
  hostedInvoiceUrl: `https://processor.example/i/${n}`,
  periodStart: month().start,
  periodEnd: month().end,
});

/** How many times the routes told ingest to drop its caches (a billing state it caches moved). */
let ingestTold = 0;

/** The billing routes with the double, on an app of their own over the test API's database. */
async function billingApp(webhookSecret: string): Promise<Client> {
  const router = Router();
  router.use(
    mountRoutes(billingRoutes({ db, processor, webhookSecret, graceSeconds: GRACE }), {
      credentials: dbCredentialStore(db),
      bodyLimitBytes: 1024 * 1024,
      invalidateIngest: () => {
        ingestTold++;
        return Promise.resolve();
      },
    }),
  );
  const app = createHttpApp({
    logger: createLogger({ level: 'silent', name: 'billing-test' }),
    dashboardOrigin: '',
    trustProxy: [],
    routes: router,
  });
  const server = await listen(app, 0, '127.0.0.1');
  servers.push(server);
  return client(`http://127.0.0.1:${server.port}`);
}

let billing: Client;

async function workspace(status: BillingStatus = 'active') {
  const w = await seedWorkspace(db, { billingStatus: status });
  const login = await api.request<{ session_token: string }>('/api/v1/auth/login', {
    body: { email: w.email, password: w.password },
  });
  return { ...w, session: login.body.session_token } as TestWorkspace & { session: string };
}

beforeAll(async () => {
  // Every test logs a workspace in: above the default five logins per IP.
  api = await startTestApi({ LOGIN_RATE_LIMIT: '100' });
  db = api.database.db;
  billing = await billingApp(SECRET);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await api.stop();
});

describe('with live billing enabled', () => {
  it('reports billing_enabled in the status object', async () => {
    const w = await workspace();
    const r = await billing('/api/v1/billing', { session: w.session });
    expect(r.body).toMatchObject({ status: 'active', billing_enabled: true });
  });

  it('checkout ignores the body, creates the customer once and keeps it', async () => {
    const w = await workspace();
    checkouts.length = 0;
    const r = await billing('/api/v1/billing/checkout', {
      session: w.session,
      body: { success_url: 'https://evil.example', price_cents: 0, customerId: 'cus_theirs' },
    });
    expect([r.status, r.body]).toEqual([200, { url: 'https://processor.example/checkout/cs_1' }]);
    expect(checkouts).toEqual([{ orgId: w.orgId, customerId: null }]);
    const customer = (await getBillingAccount(db, w.orgId))?.processor_customer_id;
    expect(customer).toMatch(/^cus_\d+$/);
    await billing('/api/v1/billing/checkout', { session: w.session, body: {} });
    expect(checkouts[1]).toEqual({ orgId: w.orgId, customerId: customer });
  });

  it('checkout refuses an exempt workspace (409)', async () => {
    const w = await workspace('exempt');
    const r = await billing('/api/v1/billing/checkout', { session: w.session, body: {} });
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
  });

  it('the portal needs a processor customer', async () => {
    const w = await workspace();
    expect((await billing('/api/v1/billing/portal', { session: w.session })).status).toBe(409);
    await setProcessorCustomer(db, w.orgId, 'cus_portal');
    const r = await billing('/api/v1/billing/portal', { session: w.session });
    expect([r.status, r.body]).toEqual([200, { url: 'https://processor.example/portal/cus_portal' }]);
  });

  it("lists at most 12 of the processor's invoices, none without a customer", async () => {
    const w = await workspace();
    expect((await billing('/api/v1/billing/invoices', { session: w.session })).body).toEqual({
      invoices: [],
      billing_enabled: true,
    });
    await setProcessorCustomer(db, w.orgId, 'cus_many');
    invoices.set(
      'cus_many',
      Array.from({ length: 15 }, (_, i) => invoice(i + 1, 'paid')),
    );
    const r = await billing<{ invoices: Record<string, unknown>[] }>('/api/v1/billing/invoices', {
      session: w.session,
    });
    expect(r.body.invoices).toHaveLength(12);
    expect(r.body.invoices[0]).toEqual({
      id: 'in_1',
      number: 'EVDS-1',
      created_at: expect.any(Number),
      status: 'paid',
      amount_due_cents: 10,
      amount_paid_cents: 10,
      currency: 'usd',
      hosted_invoice_url: 'https://processor.example/i/1',
    });
  });

  it('reconciles the local ledger with the meter and the invoice', async () => {
    const w = await workspace();
    const reconcile = () => billing('/api/v1/billing/reconciliation', { session: w.session });
    expect((await reconcile()).body).toMatchObject({ status: 'not_connected', processor: null });

    await setProcessorCustomer(db, w.orgId, 'cus_rec');
    await sql`insert into usage_records (org_id, item_id, item_kind)
              select ${w.orgId}, md5(random()::text || i::text), 'mailbox' from generate_series(1, 1500) i`.execute(
      db,
    );
    meter.set('cus_rec', 1000);
    expect((await reconcile()).body).toMatchObject({
      status: 'pending',
      local: { accepted_events: 1500, pending_meter_events: 1500, estimated_units: 2, estimated_cents: 20 },
      processor: { metered_events: 1000 },
      differences: { events: 500, cents: null },
      invoice: null,
    });

    await sql`update usage_records set reported_at = now() where org_id = ${w.orgId}`.execute(db);
    invoices.set('cus_rec', [invoice(1, 'draft', 10)]);
    expect((await reconcile()).body).toMatchObject({
      status: 'mismatch',
      local: { pending_meter_events: 0 },
      differences: { events: 500, cents: -10 },
      invoice: { id: 'in_1', status: 'draft', subtotal_cents: 10 },
    });

    meter.set('cus_rec', 1500);
    invoices.set('cus_rec', [invoice(1, 'draft', 20)]);
    expect((await reconcile()).body).toMatchObject({
      status: 'reconciled',
      differences: { events: 0, cents: 0 },
    });
  });
});

describe('the processor webhook', () => {
  const sign = (body: string, secret = SECRET, at = Date.now()) => {
    const t = Math.floor(at / 1000);
    return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  };
  const post = (body: string, signature?: string) =>
    billing('/api/v1/billing/webhook', {
      body,
      headers: signature === undefined ? {} : { 'x-billing-signature': signature },
    });

  it.each([
    ['no signature', undefined],
    ['a signature made with another secret', sign('{}', 'other')],
    ['a signature over another body', sign('{"type":"invoice.paid"}')],
    ['a signature older than five minutes', sign('{}', SECRET, Date.now() - 301_000)],
    ['a malformed signature header', 'v1=abc'],
  ])('refuses %s with 403', async (_n, signature) => {
    const r = await post('{}', signature);
    expect([r.status, r.body.code]).toEqual([403, 'signature_invalid']);
  });

  it('refuses a signed body that is not an event (400)', async () => {
    for (const body of ['[1]', '{"customer_id":"cus_x"}', '"text"']) {
      const r = await post(body, sign(body));
      expect([r.status, r.body.code]).toEqual([400, 'validation_failed']);
    }
  });

  it('acknowledges signed events it has nothing to do for, without telling ingest', async () => {
    const told = ingestTold;
    for (const body of [
      JSON.stringify({ type: 'customer.created', customer_id: 'cus_nobody' }),
      JSON.stringify({ type: 'invoice.paid', customer_id: 'cus_nobody' }),
      JSON.stringify({ type: 'invoice.paid' }),
    ]) {
      const r = await post(body, sign(body));
      expect([r.status, r.body]).toEqual([200, { received: true }]);
    }
    expect(ingestTold).toBe(told);
  });

  it("moves a workspace by the customer's invoices when a signed invoice event arrives", async () => {
    const w = await workspace();
    await setProcessorCustomer(db, w.orgId, 'cus_hook');
    invoices.set('cus_hook', [invoice(1, 'failed')]);
    // The event only says something changed: the processor's invoice list decides.
    const failed = JSON.stringify({ type: 'invoice.payment_failed', customer_id: 'cus_hook' });
    const before = Date.now();
    const told = ingestTold;
    expect((await post(failed, sign(failed))).status).toBe(200);
    expect(ingestTold).toBe(told + 1);
    // The same event again moves nothing, so ingest is not told again.
    expect((await post(failed, sign(failed))).status).toBe(200);
    expect(ingestTold).toBe(told + 1);
    const graced = await getBillingAccount(db, w.orgId);
    expect(graced?.billing_status).toBe('grace');
    const ends = graced?.billing_grace_ends_at?.getTime() ?? 0;
    expect(ends).toBeGreaterThanOrEqual(before + GRACE * 1000);
    expect(ends).toBeLessThanOrEqual(Date.now() + GRACE * 1000);

    invoices.set('cus_hook', [invoice(0, 'paid'), invoice(1, 'failed')]);
    const paid = JSON.stringify({ type: 'invoice.paid', customer_id: 'cus_hook' });
    expect((await post(paid, sign(paid))).status).toBe(200);
    expect((await getBillingAccount(db, w.orgId))?.billing_status).toBe('active');
  });

  it('refuses every call, even correctly signed, when no secret is configured (503)', async () => {
    const unsecured = await billingApp('');
    const body = JSON.stringify({ type: 'invoice.paid', customer_id: 'cus_hook' });
    for (const signature of [undefined, sign(body), sign(body, '')]) {
      const r = await unsecured('/api/v1/billing/webhook', {
        body,
        headers: signature ? { 'x-billing-signature': signature } : {},
      });
      expect([r.status, r.body.code]).toEqual([503, 'billing_disabled']);
    }
  });
});
