// Failed authentications per client address, on the api and ingest. A policy: when Redis cannot
// answer, failures go uncounted and requests go through.
import { AppError } from '@evds/domain';
import type { Redis } from '@evds/queue';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { clientAddress } from './client-address.ts';
import { createRateLimiter, hitOrLetThrough } from './rate-limit.ts';

/** Addresses remembered as blocked by one process; beyond, the least recently seen is forgotten. */
const MAX_BLOCKED_ADDRESSES = 10_000;

export interface AuthFailureLimit {
  /** Seconds this address is still blocked for (0: not blocked). In-process only: no I/O. */
  blockedFor(ip: string): number;
  /** Counts a failed authentication; answers the seconds the address is now blocked for (0: not). */
  failed(ip: string): Promise<number>;
}

export const tooManyAuthFailures = (seconds: number): AppError =>
  new AppError('rate_limited', 'too many failed authentication attempts from this address, retry later', {
    'Retry-After': String(seconds),
  });

/** IPv6 callers are counted per /64 (one subscriber's block: rotating inside it does not escape). */
function bucketOf(ip: string): string {
  const client = clientAddress(ip);
  return client.prefix64 ?? client.address;
}

/**
 * Only failures are counted in Redis (a sliding window per address), so a request that authenticates
 * pays nothing more. The failure that finds the address over the limit blocks it in this process
 * until its window allows one again: until then its requests are refused before any credential
 * lookup, so a caller guessing keys costs no Postgres query. Other replicas learn the same from
 * their own next failure for that address. A forgotten block only means one more Redis call.
 */
export function createAuthFailureLimit(
  redis: Redis,
  opts: { prefix: string; limit: number; windowSeconds: number; logger: Logger },
): AuthFailureLimit {
  const window = createRateLimiter(redis, {
    prefix: `${opts.prefix}:auth-failures`,
    limit: opts.limit,
    windowSeconds: opts.windowSeconds,
  });
  const blocked = new LRUCache<string, true>({ max: MAX_BLOCKED_ADDRESSES });
  return {
    blockedFor(ip) {
      const ms = blocked.getRemainingTTL(bucketOf(ip));
      return ms > 0 ? Math.ceil(ms / 1000) : 0;
    },
    async failed(ip) {
      const bucket = bucketOf(ip);
      const r = await hitOrLetThrough(window, bucket, opts.logger);
      if (r.allowed) return 0;
      blocked.set(bucket, true, { ttl: r.retryAfterSeconds * 1000 });
      return r.retryAfterSeconds;
    },
  };
}
