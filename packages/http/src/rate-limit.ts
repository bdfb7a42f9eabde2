import { randomBytes } from 'node:crypto';
import type { Redis } from '@evds/queue';
import { createBatcher, runGrouped } from '@evds/runtime';

// Sliding-window log: one sorted-set member per allowed request, scored by its time in ms.
// Atomic in Redis, so every replica shares one window. The time is Redis's own (TIME), never the
// caller's: a replica whose clock runs ahead would otherwise empty the window for everyone, and one
// running behind would record requests that never leave it. Redis 5+ replicates a script's effects,
// not the script, so reading TIME before writing is allowed (and is the only mode since Redis 7).
// One call takes several hits, in order (KEYS[i] with member ARGV[i + 2]; a key may repeat), and
// answers two numbers per hit: allowed (1 or 0) and, when refused, the ms until the window has room.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local out = {}
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) < limit then
    redis.call('ZADD', key, now, ARGV[i + 2])
    redis.call('PEXPIRE', key, window)
    out[#out + 1] = 1
    out[#out + 1] = 0
  else
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    out[#out + 1] = 0
    out[#out + 1] = tonumber(oldest[2]) + window - now
  end
end
return out
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

type SlidingWindow = (numKeys: number, ...keysThenArgs: (string | number)[]) => Promise<number[]>;

/**
 * A sliding window per key, shared by every replica. The hits a process makes in one turn of its event
 * loop (the requests one Redis answer woke, say) go together in one script call, one round trip: on a
 * single server all of them, on a Redis Cluster those of one key (a script's keys must share a slot).
 * A few calls may be under way at once, so a hit seldom waits for another's answer before its own.
 */
export function createRateLimiter(
  redis: Redis,
  opts: { prefix: string; limit: number; windowSeconds: number },
): RateLimiter {
  const windowMs = opts.windowSeconds * 1000;
  // A defined command runs by its SHA (EVALSHA), loading the script only when Redis does not know it.
  if (!('evdsSlidingWindow' in redis)) redis.defineCommand('evdsSlidingWindow', { lua: SCRIPT });
  const slidingWindow = (redis as unknown as { evdsSlidingWindow: SlidingWindow }).evdsSlidingWindow.bind(
    redis,
  );
  const call = async (keys: string[]): Promise<RateLimitResult[]> => {
    const members = keys.map(() => `${instance}-${seq++}`);
    const answers = await slidingWindow(keys.length, ...keys, windowMs, opts.limit, ...members);
    return keys.map((_, i) => {
      const allowed = answers[2 * i] === 1;
      const waitMs = answers[2 * i + 1] ?? 0;
      return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(waitMs / 1000)) };
    });
  };
  const hits = createBatcher<string, RateLimitResult>(
    (keys) => (redis.isCluster ? runGrouped(keys, (key) => key, call) : call(keys)),
    { maxBatch: 100, maxInFlight: 4 },
  );
  return { hit: (key) => hits.submit(`${opts.prefix}:${key}`) };
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
