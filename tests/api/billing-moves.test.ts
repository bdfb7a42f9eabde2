// Proves the billing moves against the real database with a fake clock and a payment-processor double
// (the one outside system that cannot be reached here): the 'billing' task moves an active workspace
// with a failed invoice to grace for exactly BILLING_GRACE_SECONDS, suspends it when the grace period
// has passed (not a second before), brings grace and suspended workspaces back to active once the
// newest invoice is paid, never moves pending, exempt or unconnected workspaces, goes on when the
// processor fails for one customer, and does nothing at all with the disabled processor. Moves are
// compare-and-set: an operator's change in between wins. The maintenance scheduler runs the task only
// when given one (live billing enabled) and removes its scheduler otherwise, on real Redis.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  disabledProcessor,
  runBillingMoves,
  type PaymentProcessor,
  type ProcessorInvoice,
} from '@evds/billing';
import {
  getBillingAccount,
  moveBillingState,
  setBillingStatus,
  setProcessorCustomer,
  type Db,
} from '@evds/db';
import { createMaintenance } from '@evds/delivery';
import type { BillingStatus } from '@evds/domain';
import { createProducer, createRedis } from '@evds/queue';
import { createLogger } from '@evds/runtime';
import {
  createTestDatabase,
  seedWorkspace,
  testRedisPrefix,
  testRedisUrl,
  type TestDatabase,
} from '@evds/testkit';

const GRACE = 3 * 24 * 3600;
const t0 = new Date('2026-11-21T08:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.drop());

type Status = ProcessorInvoice['status'];

/** A processor double: per-customer invoices (newest last), customers it fails for, and every call. */
function processorDouble(enabled = true) {
  const invoices = new Map<string, ProcessorInvoice[]>();
  const failing = new Set<string>();
  const calls: string[] = [];
  let day = 0;
  const processor: PaymentProcessor = {
    enabled,
    listInvoices: (customer) => {
      calls.push(`listInvoices ${customer}`);
      if (failing.has(customer)) return Promise.reject(new Error('processor unavailable'));
      return Promise.resolve([...(invoices.get(customer) ?? [])].reverse());
    },
    createCheckout: () => Promise.reject(new Error('not used')),
    createPortal: () => Promise.reject(new Error('not used')),
    meterSummary: () => Promise.reject(new Error('not used')),
    reportUsage: () => Promise.reject(new Error('not used')),
  };
  /** Appends an invoice (newer than every earlier one) to a customer's history. */
  const invoice = (customer: string, status: Status) => {
    day++;
    const list = invoices.get(customer) ?? [];
    list.push({
      id: `in_${day}`,
      number: `N-${day}`,
      createdAt: new Date(Date.UTC(2026, 9, day)),
      status,
      subtotalCents: 10,
      amountDueCents: 10,
      amountPaidCents: status === 'paid' ? 10 : 0,
      currency: 'usd',
      hostedInvoiceUrl: null,
      periodStart: new Date(Date.UTC(2026, 9, 1)),
      periodEnd: new Date(Date.UTC(2026, 10, 1)),
    });
    invoices.set(customer, list);
  };
  return { processor, invoice, failing, calls };
}

/** A workspace in `status`, connected to processor customer `customer` when given. */
async function workspace(status: BillingStatus, customer?: string, graceEndsAt: Date | null = null) {
  const w = await seedWorkspace(db, { billingStatus: 'active' });
  await setBillingStatus(db, w.orgId, status, graceEndsAt);
  if (customer) await setProcessorCustomer(db, w.orgId, `${customer}_${w.orgId}`);
  return { orgId: w.orgId, customer: customer ? `${customer}_${w.orgId}` : '' };
}

const stateOf = async (orgId: string) => {
  const a = await getBillingAccount(db, orgId);
  return { status: a?.billing_status, graceEndsAt: a?.billing_grace_ends_at ?? null };
};

describe('the billing task', () => {
  it('walks active -> grace -> suspended -> active with the clock and the invoices', async () => {
    const p = processorDouble();
    const org = await workspace('active', 'cus');
    // Other tests' workspaces share the database: only this one's moves are looked at.
    const run = async (now: Date) =>
      (await runBillingMoves({ db, processor: p.processor, graceSeconds: GRACE }, now)).filter(
        (m) => m.orgId === org.orgId,
      );

    expect(await run(t0)).toEqual([]);
    expect(await stateOf(org.orgId)).toEqual({ status: 'active', graceEndsAt: null });

    p.invoice(org.customer, 'failed');
    expect(await run(t0)).toEqual([
      { orgId: org.orgId, reason: 'payment_failed', to: { status: 'grace', graceEndsAt: at(GRACE) } },
    ]);
    expect(await stateOf(org.orgId)).toEqual({ status: 'grace', graceEndsAt: at(GRACE) });

    // Running again during grace changes nothing, and does not extend it.
    expect(await run(at(3600))).toEqual([]);
    expect(await run(at(GRACE - 1))).toEqual([]);
    expect(await stateOf(org.orgId)).toEqual({ status: 'grace', graceEndsAt: at(GRACE) });

    expect(await run(at(GRACE))).toEqual([
      { orgId: org.orgId, reason: 'grace_expired', to: { status: 'suspended', graceEndsAt: null } },
    ]);
    expect(await stateOf(org.orgId)).toEqual({ status: 'suspended', graceEndsAt: null });
    expect(await run(at(GRACE + 86400))).toEqual([]);

    p.invoice(org.customer, 'paid');
    expect(await run(at(GRACE + 90000))).toEqual([
      { orgId: org.orgId, reason: 'payment_succeeded', to: { status: 'active', graceEndsAt: null } },
    ]);
    expect(await stateOf(org.orgId)).toEqual({ status: 'active', graceEndsAt: null });
  });

  it('brings a workspace in grace back to active when the invoice is paid', async () => {
    const p = processorDouble();
    const org = await workspace('grace', 'cus', at(60));
    p.invoice(org.customer, 'failed');
    p.invoice(org.customer, 'paid');
    await runBillingMoves({ db, processor: p.processor, graceSeconds: GRACE }, at(30));
    expect(await stateOf(org.orgId)).toEqual({ status: 'active', graceEndsAt: null });
  });

  it('starts the clock of a grace state an operator set without an end', async () => {
    const p = processorDouble();
    const org = await workspace('grace');
    await runBillingMoves({ db, processor: p.processor, graceSeconds: 120 }, t0);
    expect(await stateOf(org.orgId)).toEqual({ status: 'grace', graceEndsAt: at(120) });
  });

  it('never moves pending, exempt or unconnected workspaces, and ignores open and draft invoices', async () => {
    const p = processorDouble();
    const pending = await workspace('pending', 'cus');
    const exempt = await workspace('exempt', 'cus');
    const unconnected = await workspace('active');
    const openOnly = await workspace('active', 'cus');
    p.invoice(pending.customer, 'failed');
    p.invoice(exempt.customer, 'failed');
    p.invoice(openOnly.customer, 'failed');
    p.invoice(openOnly.customer, 'paid');
    p.invoice(openOnly.customer, 'open');
    p.invoice(openOnly.customer, 'draft');
    await runBillingMoves({ db, processor: p.processor, graceSeconds: GRACE }, t0);
    expect(await stateOf(pending.orgId)).toEqual({ status: 'pending', graceEndsAt: null });
    expect(await stateOf(exempt.orgId)).toEqual({ status: 'exempt', graceEndsAt: null });
    expect(await stateOf(unconnected.orgId)).toEqual({ status: 'active', graceEndsAt: null });
    expect(await stateOf(openOnly.orgId)).toEqual({ status: 'active', graceEndsAt: null });
    // The machine only asks the processor about workspaces it can move.
    expect(p.calls).not.toContain(`listInvoices ${pending.customer}`);
    expect(p.calls).not.toContain(`listInvoices ${exempt.customer}`);
  });

  it('goes on with the other workspaces when the processor fails for one', async () => {
    const p = processorDouble();
    const broken = await workspace('active', 'cus');
    const fine = await workspace('active', 'cus');
    p.invoice(broken.customer, 'failed');
    p.invoice(fine.customer, 'failed');
    p.failing.add(broken.customer);
    const moved = await runBillingMoves({ db, processor: p.processor, graceSeconds: GRACE }, t0);
    expect(moved.map((m) => m.orgId)).toContain(fine.orgId);
    expect(moved.map((m) => m.orgId)).not.toContain(broken.orgId);
    expect((await stateOf(broken.orgId)).status).toBe('active');
    expect((await stateOf(fine.orgId)).status).toBe('grace');
  });

  it('tells the caches once after moves, and not at all without any', async () => {
    const p = processorDouble();
    const org = await workspace('active', 'cus');
    let told = 0;
    const deps = {
      db,
      processor: p.processor,
      graceSeconds: GRACE,
      onMoved: () => Promise.resolve(void told++),
    };
    await runBillingMoves(deps, t0);
    expect(told).toBe(0);
    p.invoice(org.customer, 'failed');
    await runBillingMoves(deps, t0);
    expect(told).toBe(1);
  });

  it('does nothing at all while live billing is disabled', async () => {
    const spy = processorDouble(false);
    const org = await workspace('active', 'cus');
    const graced = await workspace('grace', 'cus', at(-1));
    spy.invoice(org.customer, 'failed');
    expect(await runBillingMoves({ db, processor: spy.processor, graceSeconds: GRACE }, t0)).toEqual([]);
    expect(await runBillingMoves({ db, processor: disabledProcessor, graceSeconds: GRACE }, t0)).toEqual([]);
    expect(spy.calls).toEqual([]);
    expect(await stateOf(org.orgId)).toEqual({ status: 'active', graceEndsAt: null });
    expect(await stateOf(graced.orgId)).toEqual({ status: 'grace', graceEndsAt: at(-1) });
  });
});

describe('moveBillingState', () => {
  it('applies a move only from the state it was computed from', async () => {
    const org = await workspace('grace', undefined, at(60));
    const from = { status: 'grace' as const, graceEndsAt: at(60) };
    // An operator set another end date meanwhile: the stale move is dropped.
    await setBillingStatus(db, org.orgId, 'grace', at(600));
    expect(await moveBillingState(db, org.orgId, from, { status: 'suspended', graceEndsAt: null })).toBe(
      false,
    );
    expect(await stateOf(org.orgId)).toEqual({ status: 'grace', graceEndsAt: at(600) });
    expect(
      await moveBillingState(
        db,
        org.orgId,
        { status: 'grace', graceEndsAt: at(600) },
        { status: 'suspended', graceEndsAt: null },
      ),
    ).toBe(true);
    expect(await stateOf(org.orgId)).toEqual({ status: 'suspended', graceEndsAt: null });
  });
});

describe('the maintenance scheduler', () => {
  const redisUrl = testRedisUrl();
  const prefix = testRedisPrefix();
  const client = createRedis(redisUrl, { role: 'client' });
  const producer = createProducer(client, prefix);
  afterAll(async () => {
    await producer.close();
    client.disconnect();
  });

  const start = async (billing?: { run(now: Date): Promise<unknown> }) => {
    const redis = createRedis(redisUrl, { role: 'worker' });
    const m = createMaintenance({
      db,
      producer,
      redis,
      prefix,
      logger: createLogger({ level: 'silent', name: 'test' }),
      sweepIntervalMs: 60_000,
      sweepGraceMs: 60_000,
      maintenanceIntervalMs: 100,
      payloadRetentionSeconds: 3600,
      ...(billing ? { billing } : {}),
    });
    await m.start();
    return {
      stop: async () => {
        await m.close();
        redis.disconnect();
      },
    };
  };
  const schedulers = async () =>
    (await producer.queue('maintenance').getJobSchedulers()).map((s) => s.key ?? s.name).sort();

  it('runs the billing task only when given one, and removes its scheduler otherwise', async () => {
    const runs: Date[] = [];
    const enabled = await start({ run: (now) => Promise.resolve(void runs.push(now)) });
    try {
      expect(await schedulers()).toContain('billing');
      const deadline = Date.now() + 10_000;
      while (runs.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(runs.length).toBeGreaterThanOrEqual(2);
      expect(runs[0]).toBeInstanceOf(Date);
    } finally {
      await enabled.stop();
    }

    const disabled = await start();
    try {
      expect(await schedulers()).not.toContain('billing');
      expect(await schedulers()).toContain('retention');
      const before = runs.length;
      await new Promise((r) => setTimeout(r, 500));
      expect(runs.length).toBe(before);
    } finally {
      await disabled.stop();
    }
  });
});
