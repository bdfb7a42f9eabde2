import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/**
 * Standard Webhooks v1 signature: base64(HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")), sent
 * as "v1,<signature>"; during rotation one per secret, space-separated. Computed with node:crypto on
 * this hot path; tests verify it with the official `standardwebhooks` package.
 */
export function signatureHeader(secrets: string[], msgId: string, timestamp: number, body: Buffer): string {
  return secrets
    .map((secret) => {
      const key = keyOf(secret);
      const mac = createHmac('sha256', key).update(`${msgId}.${timestamp}.`).update(body).digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
}

// Key objects per secret, so each signature does not import its key again (bounded).
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64'));
    if (keys.size >= 10_000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}
