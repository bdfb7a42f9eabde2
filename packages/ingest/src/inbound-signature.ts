import { isFreshTimestamp, matchesAny, timestampedHmac } from '@evds/secrets';

export type InboundCheck = { ok: true } | { ok: false; reason: string };

/**
 * Optional producer signatures: `X-Service-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`
 * with `X-Service-Timestamp` in Unix seconds, at most five minutes from now.
 */
export function verifyInbound(
  secret: string,
  rawBody: Buffer,
  timestamp: string | undefined,
  signature: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): InboundCheck {
  if (!timestamp || !signature)
    return { ok: false, reason: 'X-Service-Timestamp and X-Service-Signature are required' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'X-Service-Timestamp must be Unix seconds' };
  if (!isFreshTimestamp(timestamp, nowSeconds))
    return { ok: false, reason: 'X-Service-Timestamp is too far from now' };
  const given = signature
    .split(/[ ,]+/)
    .filter((s) => s.startsWith('v1='))
    .map((s) => Buffer.from(s.slice(3), 'hex'));
  return matchesAny(timestampedHmac(secret, timestamp, rawBody), given)
    ? { ok: true }
    : { ok: false, reason: 'X-Service-Signature does not match' };
}

export function signInbound(secret: string, rawBody: Buffer, timestamp: number): string {
  return `v1=${timestampedHmac(secret, String(timestamp), rawBody).toString('hex')}`;
}
