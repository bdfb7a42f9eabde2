import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The scheme both signed inbound calls use (producers' items and the payment processor's webhook):
 * HMAC-SHA256(secret, "<unix seconds>.<raw body>"), refused when the timestamp is more than
 * `SIGNATURE_SKEW_SECONDS` from now. Only the headers that carry it differ.
 */
export const SIGNATURE_SKEW_SECONDS = 300;

export const timestampedHmac = (secret: string, timestamp: string, body: Buffer): Buffer =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/** A timestamp of whole Unix seconds within the allowed skew of now. */
export const isFreshTimestamp = (timestamp: string, nowSeconds: number): boolean =>
  /^\d{1,12}$/.test(timestamp) && Math.abs(nowSeconds - Number(timestamp)) <= SIGNATURE_SKEW_SECONDS;

/** True when any of the given signatures is the expected one (constant-time comparisons). */
export const matchesAny = (expected: Buffer, given: Buffer[]): boolean =>
  given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
