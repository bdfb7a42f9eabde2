// Proves the processor webhook signature check: a correct signature over the exact raw body passes
// (also as the second of two v1 entries), and a wrong secret, a changed body, a stale or future
// timestamp, a missing or malformed header and an empty configured secret all fail.
import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { signBillingWebhook, verifyBillingSignature } from './signature.ts';

const secret = 'whsec_test_billing';
const body = Buffer.from('{"type":"invoice.paid","customer_id":"cus_1"}');
const now = new Date('2026-11-21T08:00:00Z');

describe('billing webhook signatures', () => {
  it('accepts a correct signature', () => {
    expect(verifyBillingSignature(secret, signBillingWebhook(secret, body, now), body, now)).toBe(true);
  });

  it('accepts a match among several v1 entries', () => {
    const good = signBillingWebhook(secret, body, now);
    const other = signBillingWebhook('old-secret', body, now).split(',')[1];
    expect(
      verifyBillingSignature(secret, `${good.split(',')[0]},${other},${good.split(',')[1]}`, body, now),
    ).toBe(true);
  });

  it.each([
    ['a wrong secret', () => signBillingWebhook('other', body, now), body],
    ['a changed body', () => signBillingWebhook(secret, body, now), Buffer.from(`${body.toString()} `)],
    ['a stale timestamp', () => signBillingWebhook(secret, body, new Date(now.getTime() - 301_000)), body],
    ['a future timestamp', () => signBillingWebhook(secret, body, new Date(now.getTime() + 301_000)), body],
    ['no header', () => undefined, body],
    ['an empty header', () => '', body],
    ['no timestamp', () => signBillingWebhook(secret, body, now).split(',')[1], body],
    ['a v0 scheme', () => signBillingWebhook(secret, body, now).replace('v1=', 'v0='), body],
    ['a short signature', () => signBillingWebhook(secret, body, now).slice(0, -2), body],
  ])('refuses %s', (_name, header, raw) => {
    expect(verifyBillingSignature(secret, header(), raw, now)).toBe(false);
  });

  it('refuses everything when no secret is configured', () => {
    const t = String(Math.floor(now.getTime() / 1000));
    const emptyKeyed = createHmac('sha256', '').update(`${t}.`).update(body).digest('hex');
    expect(verifyBillingSignature('', `t=${t},v1=${emptyKeyed}`, body, now)).toBe(false);
  });
});
