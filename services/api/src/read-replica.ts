// The API's optional read replica (DATABASE_READ_URL): a second pool that the event list, the event
// detail and the stats read from, a health report that names the replica without depending on it, and
// how far behind the primary it is.
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

/**
 * Seconds the replica is behind: since the last transaction it replayed, while it has received WAL it
 * has not replayed yet; 0 when it has replayed all it received (an idle primary sends no new
 * transactions, and the time since the last one is then no lag). Null when the server is no standby.
 */
export async function replicaLagSeconds(readDb: Db): Promise<number | null> {
  const { rows } = await sql<{ lag: number | null }>`
    select case
             when not pg_is_in_recovery() then null
             when pg_last_wal_receive_lsn() is not distinct from pg_last_wal_replay_lsn() then 0
             else greatest(0, extract(epoch from now() - pg_last_xact_replay_timestamp()))::float8
           end as lag`.execute(readDb);
  return rows[0]?.lag ?? null;
}
