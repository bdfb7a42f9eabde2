import { randomBytes } from 'node:crypto';
import type { Redis } from '@evds/queue';

// Sliding-window log: one sorted-set member per allowed request, scored by its time in ms.
// Atomic in Redis, so every replica shares one window. The time is Redis's own (TIME), never the
// caller's: a replica whose clock runs ahead would otherwise empty the window for everyone, and one
// running behind would record requests that never leave it. Redis 5+ replicates a script's effects,
// not the script, so reading TIME before writing is allowed (and is the only mode since Redis 7).
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, tonumber(oldest[2]) + window - now}
`;

export interface RateLimitResult {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string): Promise<RateLimitResult>;
}

// Members must be unique across replicas (containers often all run as pid 1) and within one
// millisecond, so they carry a random id per process and a counter rather than a time.
const instance = randomBytes(6).toString('hex');
let seq = 0;

type SlidingWindow = (
  key: string,
  windowMs: number,
  limit: number,
  member: string,
) => Promise<[number, number]>;

export function createRateLimiter(
  redis: Redis,
  opts: { prefix: string; limit: number; windowSeconds: number },
): RateLimiter {
  const windowMs = opts.windowSeconds * 1000;
  // A defined command runs by its SHA (EVALSHA), loading the script only when Redis does not know it.
  redis.defineCommand('evdsSlidingWindow', { numberOfKeys: 1, lua: SCRIPT });
  const slidingWindow = (redis as unknown as { evdsSlidingWindow: SlidingWindow }).evdsSlidingWindow.bind(
    redis,
  );
  return {
    async hit(key) {
      const [allowed, waitMs] = await slidingWindow(
        `${opts.prefix}:${key}`,
        windowMs,
        opts.limit,
        `${instance}-${seq++}`,
      );
      return {
        allowed: allowed === 1,
        retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
      };
    },
  };
}

/** The key of a target's ingest window: ingestion, replay and recover all count in this one. */
export const targetWindowKey = (targetId: string): string => `ingest:${targetId}`;

/**
 * One hit that lets the request through when Redis cannot answer (and logs it): these limits are
 * policies, and refusing every caller while Redis restarts would cost more than they protect.
 */
export async function hitOrLetThrough(
  limiter: RateLimiter,
  key: string,
  logger: { warn(obj: object, msg: string): void },
): Promise<RateLimitResult> {
  try {
    return await limiter.hit(key);
  } catch (err) {
    logger.warn({ err }, 'rate limit unavailable (Redis); request let through');
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
