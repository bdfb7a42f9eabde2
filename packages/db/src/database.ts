import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './tables/index.ts';

// int8 (counts, identity ids) as JavaScript numbers: every count this service keeps fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = Kysely<Database>;

/** A session of the named statements' pool is replaced after this long (see ServicePool). */
const NAMED_LIFETIME_SECONDS = 15 * 60;

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
  /** How long a session of the named statements' pool lives (default NAMED_LIFETIME_SECONDS). */
  namedLifetimeSeconds?: number;
}

export function createDb(opts: DbOptions): Db {
  const config: pg.PoolConfig = {
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    application_name: opts.applicationName ?? 'evds',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Sent in the startup packet: set on every connection before its first statement, with no extra round trip.
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
  };
  const pool = new ServicePool(config, opts.namedLifetimeSeconds ?? NAMED_LIFETIME_SECONDS);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/**
 * The handle's pool, and beside it a smaller one for the named statements of prepared.ts only, opened
 * on first use. Its sessions keep generic plans: a custom plan of a statement over the partitioned
 * events costs more to make than the statement costs to run, and a generic one still prunes the
 * partitions as it starts, from the parameters. No other statement runs there: a generic plan cannot,
 * for one, match a partial unique index whose predicate is a parameter (ON CONFLICT ... WHERE). A
 * generic plan made while a new partition was still empty (a sequential scan) lasts until the
 * partition's first ANALYZE; where autovacuum is off that is never, so these sessions end after a
 * while (NAMED_LIFETIME_SECONDS) and their successors make the plans again.
 */
class ServicePool extends pg.Pool {
  readonly named: pg.Pool;
  constructor(config: pg.PoolConfig, namedLifetimeSeconds: number) {
    super(config);
    this.named = new pg.Pool({
      ...config,
      max: Math.max(2, Math.ceil((config.max ?? 10) / 2)),
      options: '-c plan_cache_mode=force_generic_plan',
      maxLifetimeSeconds: namedLifetimeSeconds,
    });
    for (const p of [this, this.named]) {
      // An idle client that loses its server emits here; without a listener the process would crash.
      p.on('error', () => {});
      // A checked-out client has no pool listener: one between two statements of a transaction (or not
      // yet queried) when Postgres stops would emit an unhandled 'error' and crash the process. Its next
      // query fails instead ("not queryable") and the pool drops it on release.
      p.on('connect', (client) => client.on('error', () => {}));
    }
  }
  override async end(): Promise<void> {
    await Promise.all([super.end(), this.named.end()]);
  }
}

const pools = new WeakMap<Db, ServicePool>();

/** The pool for named statements behind a handle from createDb (undefined for any other handle). */
export const namedPoolOf = (db: Db): pg.Pool | undefined => pools.get(db)?.named;

/** The connection pool behind a handle from createDb (for the pool saturation metrics). */
export function poolStats(db: Db): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = pools.get(db);
  const both = pool && [pool, pool.named];
  return (
    both && {
      total: both.reduce((n, p) => n + p.totalCount, 0),
      idle: both.reduce((n, p) => n + p.idleCount, 0),
      waiting: both.reduce((n, p) => n + p.waitingCount, 0),
      max: both.reduce((n, p) => n + (p.options.max ?? 0), 0),
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
