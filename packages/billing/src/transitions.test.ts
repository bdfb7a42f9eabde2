// Proves the payment-failure machine as a pure function with a fake clock: a failed invoice moves
// active to grace for exactly the grace period, grace past its end moves to suspended (not a moment
// before), a paid invoice brings grace and suspended back to active, pending and exempt never move,
// and only the newest paid or failed invoice counts (drafts, open and void ones say nothing).
import { describe, expect, it } from '@jest/globals';
import type { BillingStatus } from '@evds/domain';
import { latestSettledInvoice, nextBillingState, type BillingState } from './transitions.ts';

const GRACE = 3 * 24 * 3600;
const t0 = new Date('2026-11-21T08:00:00.000Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const state = (status: BillingStatus, graceEndsAt: Date | null = null): BillingState => ({
  status,
  graceEndsAt,
});
const move = (cur: BillingState, invoice: 'paid' | 'failed' | null, now = t0) =>
  nextBillingState(cur, { now, graceSeconds: GRACE, invoice: invoice && { status: invoice } });

describe('nextBillingState', () => {
  it('active + failed invoice -> grace ending three days later', () => {
    expect(move(state('active'), 'failed')).toEqual({
      to: { status: 'grace', graceEndsAt: later(GRACE) },
      reason: 'payment_failed',
    });
  });

  it('active stays active when the latest invoice is paid or there is none', () => {
    expect(move(state('active'), 'paid')).toBeNull();
    expect(move(state('active'), null)).toBeNull();
  });

  it('grace stays until its end, then (still unpaid) -> suspended', () => {
    const grace = state('grace', later(GRACE));
    expect(move(grace, 'failed', later(GRACE - 1))).toBeNull();
    expect(move(grace, null, later(GRACE - 1))).toBeNull();
    expect(move(grace, 'failed', later(GRACE))).toEqual({
      to: { status: 'suspended', graceEndsAt: null },
      reason: 'grace_expired',
    });
    expect(move(grace, null, later(GRACE + 3600))?.to.status).toBe('suspended');
  });

  it('a failed invoice during grace does not extend it', () => {
    expect(move(state('grace', later(60)), 'failed', later(30))).toBeNull();
  });

  it('grace + paid invoice -> active, even past the grace end', () => {
    const paid = { to: { status: 'active', graceEndsAt: null }, reason: 'payment_succeeded' };
    expect(move(state('grace', later(GRACE)), 'paid', later(10))).toEqual(paid);
    expect(move(state('grace', later(GRACE)), 'paid', later(GRACE + 10))).toEqual(paid);
  });

  it('grace without an end date (set by an operator) gets one', () => {
    expect(move(state('grace'), null)).toEqual({
      to: { status: 'grace', graceEndsAt: later(GRACE) },
      reason: 'grace_started',
    });
  });

  it('suspended + paid invoice -> active; otherwise it stays suspended', () => {
    expect(move(state('suspended'), 'paid')).toEqual({
      to: { status: 'active', graceEndsAt: null },
      reason: 'payment_succeeded',
    });
    expect(move(state('suspended'), 'failed')).toBeNull();
    expect(move(state('suspended'), null)).toBeNull();
  });

  it.each(['pending', 'exempt'] as const)('%s never moves', (status) => {
    for (const invoice of ['paid', 'failed', null] as const) expect(move(state(status), invoice)).toBeNull();
  });

  it('follows the configured grace length', () => {
    const r = nextBillingState(state('active'), { now: t0, graceSeconds: 5, invoice: { status: 'failed' } });
    expect(r?.to.graceEndsAt).toEqual(later(5));
  });
});

describe('latestSettledInvoice', () => {
  const inv = (status: 'draft' | 'open' | 'paid' | 'failed' | 'void', day: number) => ({
    status,
    createdAt: new Date(Date.UTC(2026, 10, day)),
  });

  it('is null without a paid or failed invoice', () => {
    expect(latestSettledInvoice([])).toBeNull();
    expect(latestSettledInvoice([inv('draft', 3), inv('open', 2), inv('void', 1)])).toBeNull();
  });

  it('takes the newest paid or failed invoice, whatever the list order', () => {
    expect(latestSettledInvoice([inv('failed', 1), inv('paid', 2), inv('open', 3)])).toEqual({
      status: 'paid',
    });
    expect(latestSettledInvoice([inv('paid', 1), inv('draft', 9), inv('failed', 5)])).toEqual({
      status: 'failed',
    });
  });
});
