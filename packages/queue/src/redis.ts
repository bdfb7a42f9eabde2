import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

/**
 * A Redis client. Producers and request paths fail fast when Redis is away (a request must not hang);
 * BullMQ workers need `maxRetriesPerRequest: null` so blocking commands wait out a reconnect.
 */
export function createRedis(url: string, opts: { role: 'client' | 'worker'; name?: string }): Redis {
  const redis = new Redis(url, {
    connectionName: opts.name,
    maxRetriesPerRequest: opts.role === 'worker' ? null : 2,
    // Commands issued in the same tick go out in one write (fewer syscalls on the hot paths).
    ...(opts.role === 'client' ? { commandTimeout: 2000, enableAutoPipelining: true } : {}),
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
  // Connection errors are reported through command failures and /health; avoid unhandled 'error' events.
  redis.on('error', () => {});
  // Commands sent before the first connection wait for it (start-up, one-shot tools). Once connected,
  // commands fail at once while Redis is away instead of queueing until commandTimeout: otherwise every
  // ingest request spends seconds per Redis call during an outage (the cache, the rate limit and the
  // enqueue each wait) and ingestion stalls, when it should go on (the sweeper enqueues later).
  if (opts.role === 'client')
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
  return redis;
}

/** True for ioredis failures that mean "Redis cannot be reached now" (answered 503, not 500). */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ETIMEDOUT/.test(err.message)
  );
}

/**
 * One counter for the whole deployment, bumped after every change to what ingest caches: API keys,
 * targets and billing states (the API routes marked invalidatesIngest, auto-disable, billing moves,
 * the operator's set-billing). Ingest replicas compare it on each lookup and drop their caches when
 * it moved, so a deleted key or disabled target stops working on the very next request everywhere.
 * Nothing else bumps it: each bump costs every replica a cold cache.
 */
export const cacheGenerationKey = (prefix: string): string => `${prefix}:cache-generation`;

export async function bumpCacheGeneration(redis: Redis, prefix: string): Promise<void> {
  await redis.incr(cacheGenerationKey(prefix));
}
