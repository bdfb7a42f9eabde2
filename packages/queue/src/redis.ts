import { parseRedisUrl } from '@evds/config';
import { Cluster, Redis as Single } from 'ioredis';

/** A connection to one Redis server or to a Redis Cluster (REDIS_URL redis-cluster://...). */
export type Redis = Single | Cluster;

const retry = (times: number): number => Math.min(times * 200, 2000);

/**
 * A Redis client. Producers and request paths fail fast when Redis is away (a request must not hang);
 * BullMQ workers need `maxRetriesPerRequest: null` so blocking commands wait out a reconnect. A
 * cluster URL gives an ioredis Cluster with the same behaviour on each of its node connections.
 */
export function createRedis(url: string, opts: { role: 'client' | 'worker'; name?: string }): Redis {
  const client = opts.role === 'client';
  const perConnection = {
    connectionName: opts.name,
    maxRetriesPerRequest: client ? 2 : null,
    ...(client ? { commandTimeout: 2000 } : {}),
  };
  const target = parseRedisUrl(url);
  // No auto-pipelining (ioredis' default): each auto-pipeline is a Pipeline object that copies every
  // script defined on its connection (BullMQ defines dozens), kilobytes per command that V8 promoted
  // to the old generation. With it, ingest ran a full collection three times a second at 1,000
  // items/s (benchmark p99 about 20 ms); without, once in ten seconds (p99 about 6 ms).
  const redis: Redis =
    target.kind === 'single'
      ? new Single(url, {
          ...perConnection,
          retryStrategy: retry,
          lazyConnect: false,
        })
      : new Cluster(target.nodes, {
          redisOptions: {
            ...perConnection,
            ...(target.username ? { username: target.username } : {}),
            ...(target.password ? { password: target.password } : {}),
            ...(target.tls ? { tls: {} } : {}),
          },
          clusterRetryStrategy: retry,
          lazyConnect: false,
        });
  // Connection errors are reported through command failures and /health; avoid unhandled 'error' events.
  redis.on('error', () => {});
  // Commands sent before the first connection wait for it (start-up, one-shot tools). Once connected,
  // commands fail at once while Redis is away instead of queueing until commandTimeout: otherwise every
  // ingest request spends seconds per Redis call during an outage (the cache, the rate limit and the
  // enqueue each wait) and ingestion stalls, when it should go on (the sweeper enqueues later).
  if (client)
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
    err.name === 'ClusterAllFailedError' ||
    /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ETIMEDOUT|Cluster isn't ready|None of startup nodes|CLUSTERDOWN/.test(
      err.message,
    )
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
