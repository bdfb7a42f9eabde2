// verifyWebhook over the official package: deliveries signed with the package's own `sign` verify from
// every header and body shape a receiver holds, and each way of failing comes back as a
// WebhookVerificationError with its reason. Secrets are made per run.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError, type WebhookFailure } from './verify.ts';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const body = '{"id":1,"name":"ünïcödé"}';

function signed(secrets: string[], at = new Date(), payload = body) {
  const id = `msg_${randomBytes(8).toString('hex')}`;
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, payload)).join(' ');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

function reasonOf(fn: () => unknown): WebhookFailure | 'no error' {
  try {
    fn();
    return 'no error';
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as WebhookVerificationError).reason;
  }
}

describe('verifyWebhook', () => {
  const secret = newSecret();
  const headers = signed([secret]);

  it('returns the payload from a plain record, fetch Headers and Node-style headers', () => {
    expect(verifyWebhook(secret, headers, body)).toEqual({ id: 1, name: 'ünïcödé' });
    expect(verifyWebhook(secret, new Headers(headers), body)).toEqual({ id: 1, name: 'ünïcödé' });
    const node = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
      'webhook-signature': [headers['webhook-signature']],
      'content-type': undefined,
    };
    expect(verifyWebhook(secret, node, body)).toEqual({ id: 1, name: 'ünïcödé' });
  });

  it('takes the body as a string, a Buffer or a Uint8Array view', () => {
    const bytes = Buffer.from(body);
    const padded = new Uint8Array(bytes.length + 4);
    padded.set(bytes, 2);
    expect(verifyWebhook(secret, headers, bytes)).toEqual({ id: 1, name: 'ünïcödé' });
    expect(verifyWebhook(secret, headers, padded.subarray(2, 2 + bytes.length))).toEqual({
      id: 1,
      name: 'ünïcödé',
    });
  });

  it('names the reason of each failure', () => {
    const now = Date.now();
    expect(reasonOf(() => verifyWebhook(secret, headers, body.replace('1', '2')))).toBe('bad_signature');
    expect(reasonOf(() => verifyWebhook(newSecret(), headers, body))).toBe('bad_signature');
    const unsigned = {
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
    };
    expect(reasonOf(() => verifyWebhook(secret, unsigned, body))).toBe('missing_headers');
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, 'webhook-timestamp': 'soon' }, body))).toBe(
      'invalid_timestamp',
    );
    const old = signed([secret], new Date(now - 301_000));
    expect(reasonOf(() => verifyWebhook(secret, old, body))).toBe('timestamp_too_old');
    const ahead = signed([secret], new Date(now + 301_000));
    expect(reasonOf(() => verifyWebhook(secret, ahead, body))).toBe('timestamp_too_new');
    expect(reasonOf(() => verifyWebhook('whsec_', headers, body))).toBe('invalid_secret');
    expect(reasonOf(() => verifyWebhook([], headers, body))).toBe('invalid_secret');
    const notJson = signed([secret], new Date(), 'not json');
    expect(reasonOf(() => verifyWebhook(secret, notJson, 'not json'))).toBe('invalid_payload');
  });

  it('accepts a timestamp just inside the 5-minute tolerance', () => {
    const edge = signed([secret], new Date(Date.now() - 290_000));
    expect(verifyWebhook(secret, edge, body)).toEqual({ id: 1, name: 'ünïcödé' });
  });

  it('verifies with either secret while rotating, and with a list of secrets', () => {
    const previous = newSecret();
    const both = signed([secret, previous]);
    expect(verifyWebhook(secret, both, body)).toEqual({ id: 1, name: 'ünïcödé' });
    expect(verifyWebhook(previous, both, body)).toEqual({ id: 1, name: 'ünïcödé' });
    // A receiver that kept both secrets, facing a delivery signed with the new one only.
    expect(verifyWebhook([previous, secret], headers, body)).toEqual({ id: 1, name: 'ünïcödé' });
    expect(reasonOf(() => verifyWebhook([previous, newSecret()], headers, body))).toBe('bad_signature');
  });
});
