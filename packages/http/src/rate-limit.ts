import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

// Sliding-window log: one sorted-set member per allowed request, scored by its time in ms.
// Atomic in Redis, so every replica shares one window.
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
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

// Members must be unique across replicas: containers often all run as pid 1.
const instance = randomBytes(6).toString('hex');
let seq = 0;

type SlidingWindow = (
  key: string,
  now: number,
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
      const now = Date.now();
      const [allowed, waitMs] = await slidingWindow(
        `${opts.prefix}:${key}`,
        now,
        windowMs,
        opts.limit,
        `${now}-${instance}-${seq++}`,
      );
      return {
        allowed: allowed === 1,
        retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
      };
    },
  };
}
