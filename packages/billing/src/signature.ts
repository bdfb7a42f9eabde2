// Signatures of the payment processor's webhook calls: `X-Billing-Signature: t=<unix seconds>,v1=<hex>`
// where hex = HMAC-SHA256(BILLING_WEBHOOK_SECRET, "<t>.<raw body>"). Several v1 entries may be sent
// (the processor rotating its secret); one match is enough. Older or newer than 5 minutes is refused.
import { isFreshTimestamp, matchesAny, timestampedHmac } from '@evds/secrets';

export const BILLING_SIGNATURE_HEADER = 'x-billing-signature';

/** The header value the processor would send (tests and tooling). */
export function signBillingWebhook(secret: string, body: Buffer | string, at: Date = new Date()): string {
  const t = String(Math.floor(at.getTime() / 1000));
  return `t=${t},v1=${timestampedHmac(secret, t, Buffer.from(body)).toString('hex')}`;
}

export function verifyBillingSignature(
  secret: string,
  header: string | undefined,
  body: Buffer,
  now: Date = new Date(),
): boolean {
  if (!secret || !header || header.length > 2000) return false;
  let t: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't' && v && /^\d{1,12}$/.test(v)) t = v;
    else if (k === 'v1' && v && /^[0-9a-f]{64}$/.test(v)) signatures.push(Buffer.from(v, 'hex'));
  }
  if (t === undefined || signatures.length === 0) return false;
  if (!isFreshTimestamp(t, Math.floor(now.getTime() / 1000))) return false;
  return matchesAny(timestampedHmac(secret, t, body), signatures);
}
