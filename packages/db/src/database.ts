import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './tables/index.ts';

// int8 (counts, identity ids) as JavaScript numbers: every count this service keeps fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = Kysely<Database>;

export interface DbOptions {
  url: string;
  poolSize?: number;
  /** Names the connections in pg_stat_activity. */
  applicationName?: string;
  /**
   * Postgres cancels any statement of these connections that runs longer (waiting on a lock included),
   * so one expensive request cannot hold a pooled connection indefinitely. 0 or absent: no limit (the
   * workers' maintenance statements may rightly take long).
   */
  statementTimeoutMs?: number;
}

export function createDb(opts: DbOptions): Db {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    application_name: opts.applicationName ?? 'evds',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Sent in the startup packet: set on every connection before its first statement, with no extra round trip.
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
  });
  // An idle client that loses its server emits here; without a listener the process would crash.
  pool.on('error', () => {});
  // A checked-out client has no pool listener: one between two statements of a transaction (or not
  // yet queried) when Postgres stops would emit an unhandled 'error' and crash the process. Its next
  // query fails instead ("not queryable") and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

const pools = new WeakMap<Db, pg.Pool>();

/** The connection pool behind a handle from createDb (for the pool saturation metrics). */
export function poolStats(db: Db): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = pools.get(db);
  return (
    pool && {
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }
  );
}

/** Runs every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).map((r) => r.migrationName);
}

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P03',
  '53300',
]);

/**
 * True for errors that mean "the database cannot be reached now" (answered 503, not 500), read by
 * shape (a socket error may come from another realm, where instanceof Error fails). A read replica
 * cancelling a statement that conflicts with what it is replaying counts too: tried again, it runs.
 */
export function isDbUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message = '' } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && unavailableCodes.has(code)) return true;
  const text = String(message);
  if (code === '40001' && /conflict with recovery/i.test(text)) return true;
  return /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|not queryable/i.test(
    text,
  );
}

/**
 * Postgres query_canceled: statement_timeout fired (or an operator cancelled the statement). The
 * database is up but this request asked too much of it now: answered 503 with Retry-After, not 500.
 */
export const isStatementTimeout = (err: unknown): boolean =>
  err instanceof Error && (err as { code?: string }).code === '57014';

/** Postgres unique_violation. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string }).code === '23505';
