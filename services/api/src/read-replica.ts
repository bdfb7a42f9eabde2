// The API's optional read replica (DATABASE_READ_URL): a second pool that the event list, the event
// detail and the stats read from, and a health report that names the replica without depending on it.
import type { ApiConfig } from '@evds/config';
import { createDb, type Db } from '@evds/db';
import { probeAll, type BackingChecks, type HealthReport } from '@evds/runtime';
import { sql } from 'kysely';

/** The replica's pool, sized and time-limited as the primary's; undefined without DATABASE_READ_URL. */
export function createReadDb(cfg: ApiConfig): Db | undefined {
  if (!cfg.DATABASE_READ_URL) return undefined;
  return createDb({
    url: cfg.DATABASE_READ_URL,
    poolSize: cfg.DB_POOL_SIZE,
    applicationName: 'evds-api-read',
    statementTimeoutMs: cfg.DB_STATEMENT_TIMEOUT_MS,
  });
}

/**
 * Readiness: the primary and Redis decide it; the replica is reported as `postgres_replica` beside
 * them but never fails it. With the replica down only the reads it serves answer 503; failing
 * readiness on it would take every API instance out of the load balancer at once, writes included.
 */
export function apiHealth(backing: BackingChecks, readDb: Db | undefined): () => Promise<HealthReport> {
  return async () => {
    const [required, replica] = await Promise.all([
      probeAll({ ...backing }),
      readDb ? probeAll({ postgres_replica: () => sql`select 1`.execute(readDb) }) : undefined,
    ]);
    return { ok: required.ok, checks: { ...required.checks, ...replica?.checks } };
  };
}
