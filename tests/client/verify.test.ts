// Proves the client's verifyWebhook on real deliveries: a webhook target made through the client signs
// what the delivery worker sends to a real HTTPS receiver, and verifyWebhook over the receiver's raw body
// and headers (as a record and as fetch Headers, the body as bytes and as text) answers the payload;
// a tampered body, a wrong secret and a timestamp 10 minutes old (the body re-signed with the official
// package, past its 5-minute tolerance) each throw WebhookVerificationError with their reason; during a
// rotation each delivery verifies with the new secret and with the previous one.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyWebhook, WebhookVerificationError, type EvdsClient } from '@evds/client';
import type { Received } from '@evds/testkit';
import { Webhook } from 'standardwebhooks';
import { startClientKit, type ClientKit } from './kit.ts';

let kit: ClientKit;
let client: EvdsClient;

beforeAll(async () => {
  kit = await startClientKit();
  client = kit.client;
});
afterAll(async () => {
  await kit.stop();
});

async function webhookTarget(path: string): Promise<{ id: string; secret: string }> {
  const { target } = await client.targets.create({
    kind: 'webhook',
    name: path,
    url: `${kit.receiver.url}${path}`,
  });
  if (target.kind !== 'webhook') throw new Error(`expected a webhook target, got ${target.kind}`);
  return { id: target.id, secret: target.secret };
}

/** Sends one payload and answers the request the receiver got for it. */
async function deliver(targetId: string, payload: unknown): Promise<Received> {
  const before = kit.receiver.received.length;
  const { id } = await client.send(targetId, payload);
  const all = await kit.receiver.waitFor(before + 1);
  const got = all.slice(before).find((r) => r.headers['webhook-id'] === id);
  if (!got) throw new Error(`no delivery of ${id}`);
  return got;
}

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
  return 'verified';
}

describe('verifyWebhook on real deliveries', () => {
  let target: { id: string; secret: string };
  let got: Received;
  const payload = { order: 42, note: 'ünïcödé ✓', nested: { n: 1.5 } };

  beforeAll(async () => {
    target = await webhookTarget('/hooks/verify');
    got = await deliver(target.id, payload);
  });

  it('answers the payload from the raw body and headers, whatever their shape', () => {
    expect(verifyWebhook(target.secret, got.headers, got.body)).toEqual(payload);
    expect(verifyWebhook(target.secret, new Headers(got.headers), got.body.toString())).toEqual(payload);
    expect(verifyWebhook(target.secret, got.headers, new Uint8Array(got.body))).toEqual(payload);
  });

  it('refuses a tampered body and a wrong secret', () => {
    const tampered = got.body.toString().replace('42', '43');
    expect(failure(() => verifyWebhook(target.secret, got.headers, tampered))).toBe('bad_signature');
    const wrong = `whsec_${randomBytes(32).toString('base64')}`;
    expect(failure(() => verifyWebhook(wrong, got.headers, got.body))).toBe('bad_signature');
  });

  it('refuses a timestamp 10 minutes old, although its signature is right', () => {
    const at = new Date(Date.now() - 10 * 60_000);
    const headers = {
      ...got.headers,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(target.secret).sign(got.headers['webhook-id']!, at, got.body),
    };
    expect(failure(() => verifyWebhook(target.secret, headers, got.body))).toBe('timestamp_too_old');
    expect(failure(() => verifyWebhook(target.secret, { ...got.headers, 'webhook-id': '' }, got.body))).toBe(
      'missing_headers',
    );
  });

  it('verifies with both the new and the previous secret during a rotation', async () => {
    const rotated = await client.targets.rotateSecret(target.id);
    const during = await deliver(target.id, { order: 43 });
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verifyWebhook(rotated.secret, during.headers, during.body)).toEqual({ order: 43 });
    expect(verifyWebhook(target.secret, during.headers, during.body)).toEqual({ order: 43 });
    expect(verifyWebhook([target.secret, rotated.secret], during.headers, during.body)).toEqual({
      order: 43,
    });

    await client.targets.dropPreviousSecret(target.id);
    const after = await deliver(target.id, { order: 44 });
    expect(verifyWebhook(rotated.secret, after.headers, after.body)).toEqual({ order: 44 });
    expect(failure(() => verifyWebhook(target.secret, after.headers, after.body))).toBe('bad_signature');
  });
});
