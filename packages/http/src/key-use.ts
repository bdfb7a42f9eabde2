import { noteApiKeyUsed, type Db } from '@evds/db';
import type { Logger } from '@evds/runtime';
import { LRUCache } from 'lru-cache';

/** A key's `last_used_at` is written at most this often by one process (ms). */
export const KEY_USE_EVERY_MS = 60_000;

/**
 * What a service tells its credential store when an API key authenticates a request: the key's
 * `last_used_at` is written then, at most once a minute per key and process, beside the request and
 * never in its way. A write that fails is logged and left: the next use a minute on writes it again.
 */
export function createKeyUseNotes(db: Db, logger: Logger): (keyId: string) => void {
  const noted = new LRUCache<string, true>({ max: 10_000, ttl: KEY_USE_EVERY_MS });
  return (keyId) => {
    if (noted.has(keyId)) return;
    noted.set(keyId, true);
    noteApiKeyUsed(db, keyId).catch((err: unknown) =>
      logger.warn({ err, keyId }, 'could not note the API key as used'),
    );
  };
}
