import { createHash, randomBytes, randomFillSync } from 'node:crypto';

export const API_KEY_PREFIX = 'evds_sk_';
const HEX32 = /^[0-9a-f]{32}$/;

/**
 * A resource id: 32 lowercase hex characters, the creation time in milliseconds (12) then 80 random
 * bits (20). Ids made later sort later, so new rows land at the right edge of their indexes (not at
 * random pages of a large one), and an item's id tells which time partition holds it (idTime).
 */
export const newId = (now: number = Date.now()): string =>
  now.toString(16).padStart(12, '0').slice(-12) + randomHex(ID_RANDOM_BYTES);

const ID_RANDOM_BYTES = 10;
// Ids are made per item and per attempt: one call into the system's random source per id cost the
// worker about 2.5% of its CPU. The bytes are drawn 4 KiB at a time and each is used once.
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomHex(n: number): string {
  if (used + n > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += n;
  return pool.toString('hex', used - n, used);
}

/** The creation time an id carries, or null when it carries none that is plausible (an older, random id). */
export function idTime(id: string): Date | null {
  const ms = Number.parseInt(id.slice(0, 12), 16);
  // From 2024 to a day ahead: an older random id falls in that range about once in 4,500 (callers that
  // narrow a lookup by it look again without it when nothing is found).
  if (!(ms >= 1_704_067_200_000 && ms <= Date.now() + 86_400_000)) return null;
  return new Date(ms);
}
export const newAttemptId = (): string => `da_${newId()}`;
export const isId = (s: unknown): s is string => typeof s === 'string' && HEX32.test(s);

/** An item's event type travels on as the x-event-type header of deliveries: a valid header value. */
export const MAX_EVENT_TYPE = 200;
const EVENT_TYPE = new RegExp(`^[\\x20-\\x7E]{1,${MAX_EVENT_TYPE}}$`);
export const isEventType = (s: string): boolean => EVENT_TYPE.test(s);

/** A full API key (72 characters) and the parts stored about it. */
export function newApiKey(): { key: string; hash: string; prefix: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('hex');
  return { key, hash: sha256(key), prefix: key.slice(0, 12) };
}

export const isApiKeyShaped = (s: string): boolean => /^evds_sk_[0-9a-f]{64}$/.test(s);

/** A session token: 64 lowercase hex characters; only its hash is stored. */
export function newSessionToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('hex');
  return { token, hash: sha256(token) };
}

export const isSessionTokenShaped = (s: string): boolean => /^[0-9a-f]{64}$/.test(s);

export const sha256 = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');
