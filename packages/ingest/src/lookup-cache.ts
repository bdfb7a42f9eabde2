import { findApiKey, getIngestTarget, type Db, type IngestTarget, type KeyAuth } from '@evds/db';
import type { CredentialStore } from '@evds/http';
import { cacheGenerationKey, type Redis } from '@evds/queue';
import { createBatcher } from '@evds/runtime';

const MAX_AGE_MS = 60_000;

interface Entry<T> {
  value: T | undefined;
  at: number;
}

export interface LookupCache {
  credentials: CredentialStore;
  target(orgId: string, targetId: string): Promise<IngestTarget | undefined>;
}

/**
 * In-process caches of API keys and targets (with their org's billing state) for the ingest hot path.
 * Every lookup first reads the deployment's cache generation (one Redis GET, far cheaper than the
 * Postgres queries it saves); when it moved, everything cached is dropped. When Redis cannot answer,
 * lookups go to Postgres. Entries also expire after a minute, a bound for the unlikely case of a
 * change whose generation bump was lost.
 */
export function createLookupCache(opts: {
  db: Db;
  redis: Redis;
  prefix: string;
  maxEntries: number;
}): LookupCache {
  const keys = new Map<string, Entry<KeyAuth>>();
  const targets = new Map<string, Entry<IngestTarget>>();
  let generation: string | null | undefined;

  // Lookups waiting at the same time share one read of the generation. That read is sent after they
  // all began, so it sees every change answered before any of their requests arrived.
  const generations = createBatcher<null, string | null>(
    async (waiting) => {
      const current = await opts.redis.get(cacheGenerationKey(opts.prefix));
      return waiting.map(() => current);
    },
    { maxBatch: 100_000, maxInFlight: 1 },
  );

  /** True when the caches may be used for this lookup. */
  async function fresh(): Promise<boolean> {
    let current: string | null;
    try {
      current = await generations.submit(null);
    } catch {
      keys.clear();
      targets.clear();
      generation = undefined;
      return false;
    }
    if (current !== generation) {
      keys.clear();
      targets.clear();
      generation = current;
    }
    return true;
  }

  async function cached<T>(
    map: Map<string, Entry<T>>,
    key: string,
    load: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const usable = await fresh();
    const hit = usable ? map.get(key) : undefined;
    if (hit && Date.now() - hit.at < MAX_AGE_MS) return hit.value;
    const gen = generation;
    const value = await load();
    // Only cache what was read under the generation still current (no change slipped in between).
    if (usable && gen === generation) {
      if (map.size >= opts.maxEntries) map.clear();
      map.set(key, { value, at: Date.now() });
    }
    return value;
  }

  return {
    credentials: {
      apiKey: (hash) => cached(keys, hash, () => findApiKey(opts.db, hash)),
      session: () => Promise.resolve(undefined),
    },
    target: (orgId, targetId) =>
      cached(targets, `${orgId}:${targetId}`, () => getIngestTarget(opts.db, orgId, targetId)),
  };
}
