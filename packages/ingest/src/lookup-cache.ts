import { findApiKey, getIngestTarget, type Db, type IngestTarget, type KeyAuth } from '@evds/db';
import type { CredentialStore } from '@evds/http';
import { cacheGenerationKey, type Redis } from '@evds/queue';
import { createBatcher } from '@evds/runtime';
import { LRUCache } from 'lru-cache';

/** Longest an entry is trusted: the bound for a change whose generation bump was lost. */
const MAX_AGE_MS = 60_000;
/**
 * "Not found" answers are kept apart, few and briefly: anyone can make them up (any well-formed key or
 * id), so they must never push out the keys and targets producers really use.
 */
const MISS_ENTRIES = 1_000;
const MISS_MAX_AGE_MS = 10_000;

export interface LookupCache {
  credentials: CredentialStore;
  /**
   * `since`: when the request began (performance.now()). A read of the generation sent after it serves
   * this lookup as well as a fresh one would: the request's own key lookup has usually made one.
   */
  target(orgId: string, targetId: string, since?: number): Promise<IngestTarget | undefined>;
}

/**
 * In-process caches of API keys and targets (with their org's billing state) for the ingest hot path.
 * Every lookup first reads the deployment's cache generation (one Redis GET, far cheaper than the
 * Postgres queries it saves), or uses a read sent after its request began (a request's key and target
 * lookups share one); when it moved, everything cached is dropped. When Redis cannot answer,
 * lookups go to Postgres. Found entries are bounded least-recently-used caches: at the cap the coldest
 * entry goes, not the whole cache.
 */
export function createLookupCache(opts: {
  db: Db;
  redis: Redis;
  prefix: string;
  maxEntries: number;
}): LookupCache {
  const found = { max: opts.maxEntries, ttl: MAX_AGE_MS };
  const keys = new LRUCache<string, KeyAuth>(found);
  const targets = new LRUCache<string, IngestTarget>(found);
  const misses = new LRUCache<string, true>({ max: MISS_ENTRIES, ttl: MISS_MAX_AGE_MS });
  let generation: string | null | undefined;
  /** The newest read of the generation: when it was sent and what it answered. */
  let lastRead: { sentAt: number; value: string | null } | undefined;

  const dropAll = () => {
    keys.clear();
    targets.clear();
    misses.clear();
  };

  // Lookups waiting at the same time share one read of the generation. That read is sent after they
  // all began, so it sees every change answered before any of their requests arrived.
  const generations = createBatcher<null, string | null>(
    async (waiting) => {
      const sentAt = performance.now();
      const current = await opts.redis.get(cacheGenerationKey(opts.prefix));
      if (!lastRead || lastRead.sentAt < sentAt) lastRead = { sentAt, value: current };
      return waiting.map(() => current);
    },
    { maxBatch: 100_000, maxInFlight: 1 },
  );

  /** True when the caches may be used for this lookup (of a request begun at `since`, when given). */
  async function fresh(since?: number): Promise<boolean> {
    let current: string | null;
    try {
      current =
        since !== undefined && lastRead !== undefined && lastRead.sentAt >= since
          ? lastRead.value
          : await generations.submit(null);
    } catch {
      dropAll();
      generation = undefined;
      return false;
    }
    if (current !== generation) {
      dropAll();
      generation = current;
    }
    return true;
  }

  async function cached<T extends object>(
    hits: LRUCache<string, T>,
    missKey: string,
    key: string,
    load: () => Promise<T | undefined>,
    since?: number,
  ): Promise<T | undefined> {
    const usable = await fresh(since);
    if (usable) {
      const hit = hits.get(key);
      if (hit) return hit;
      if (misses.has(missKey)) return undefined;
    }
    const gen = generation;
    const value = await load();
    // Only cache what was read under the generation still current (no change slipped in between).
    if (usable && gen === generation) {
      if (value) hits.set(key, value);
      else misses.set(missKey, true);
    }
    return value;
  }

  return {
    credentials: {
      apiKey: (hash) => cached(keys, `key:${hash}`, hash, () => findApiKey(opts.db, hash)),
      session: () => Promise.resolve(undefined),
    },
    target: (orgId, targetId, since) => {
      const key = `${orgId}:${targetId}`;
      return cached(targets, `target:${key}`, key, () => getIngestTarget(opts.db, orgId, targetId), since);
    },
  };
}
