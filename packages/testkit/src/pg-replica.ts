// A private Postgres primary and a streaming hot-standby replica of it, for the read-replica suites:
// the primary is started as localenv starts its private instances (as an unprivileged OS user when
// run as root), the replica is a pg_basebackup -R copy of it on another free port, and the project's
// migrations run on the primary and reach the replica by streaming. The machine's shared server is
// never touched.
import { execFile } from 'node:child_process';
import { access, chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDb, migrateToLatest, type Db } from '@evds/db';
import {
  createDatabaseIfMissing,
  databaseUrlOf,
  startRestartablePostgres,
  type RestartableServer,
} from '@evds/localenv';
import { sql } from 'kysely';
import pg from 'pg';

export interface PgReplicaPair {
  primary: RestartableServer;
  /** Stop it to see the API without its replica; start() brings it back on the same port. */
  replica: RestartableServer;
  /** The migrated database on the primary, and the same database read through the replica. */
  primaryUrl: string;
  replicaUrl: string;
  /** A pool on the primary (writes, seeding). */
  db: Db;
  /** A superuser pool on the replica (replay control, checks). */
  replicaDb: Db;
  /** Resolves once the replica has replayed everything the primary had written when called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops both servers and deletes their files. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exec = promisify(execFile);

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(50);
  }
}

/** pg_basebackup of the primary's own major version: its Debian bin dir, else pg_config's, else PATH. */
async function basebackupBinary(serverUrl: string): Promise<string> {
  const [row] = await query<{ v: string }>(databaseUrlOf(serverUrl, 'postgres'), 'show server_version_num');
  const major = Math.floor(Number(row?.v) / 10_000);
  const candidates = [`/usr/lib/postgresql/${major}/bin/pg_basebackup`];
  const bindir = await exec('pg_config', ['--bindir']).then(
    (r) => r.stdout.trim(),
    () => undefined,
  );
  if (bindir) candidates.push(join(bindir, 'pg_basebackup'));
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  for (const c of candidates) if (await exists(c)) return c;
  return 'pg_basebackup';
}

async function runBasebackup(binary: string, port: number, pgData: string): Promise<void> {
  // -R writes standby.signal and primary_conninfo; -X stream takes the WAL written during the copy.
  const args = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-D', pgData];
  args.push('-R', '-X', 'stream', '-c', 'fast', '--no-sync');
  await exec(binary, args, { timeout: 120_000 }).catch((err: { stderr?: string; message: string }) => {
    throw new Error(`pg_basebackup failed: ${err.stderr?.trim() || err.message}`);
  });
}

/**
 * Starts the primary and its replica in a temp dir on free ports, waits until the replica streams
 * (pg_stat_replication on the primary), migrates database `evds` on the primary and waits until the
 * replica has replayed the migration.
 */
export async function startPgReplicaPair(): Promise<PgReplicaPair> {
  const dataDir = await mkdtemp(join(tmpdir(), 'evds-replica-'));
  // The servers may run as another OS user (under root), which must pass through this directory.
  await chmod(dataDir, 0o711);
  const cleanups: (() => Promise<unknown>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const stop = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
  };
  try {
    const primary = await startRestartablePostgres({ dataDir: join(dataDir, 'primary') });
    cleanups.push(() => primary.stop());
    const admin = databaseUrlOf(primary.url, 'postgres');
    // Defaults since Postgres 10; a server configured otherwise is refused here rather than hanging below.
    const [settings] = await query<{ wal_level: string; senders: string }>(
      admin,
      `select current_setting('wal_level') as wal_level, current_setting('max_wal_senders') as senders`,
    );
    if (settings?.wal_level === 'minimal' || Number(settings?.senders) < 1)
      throw new Error(
        `the primary cannot stream: wal_level ${settings?.wal_level}, max_wal_senders ${settings?.senders}`,
      );

    const replicaDir = join(dataDir, 'replica');
    await mkdir(replicaDir);
    // Files copied as root are handed to the server's OS user when the replica starts (localenv).
    await runBasebackup(await basebackupBinary(primary.url), primary.port, join(replicaDir, 'pg'));
    const replica = await startRestartablePostgres({ dataDir: replicaDir });
    cleanups.push(() => replica.stop());
    await until(
      'the replica streams from the primary',
      async () =>
        (await query(admin, `select 1 from pg_stat_replication where state = 'streaming'`)).length > 0,
      30_000,
    );

    const primaryUrl = await createDatabaseIfMissing(primary.url, 'evds');
    const replicaUrl = databaseUrlOf(replica.url, 'evds');
    const db = createDb({ url: primaryUrl, poolSize: 3, applicationName: 'evds-test-primary' });
    cleanups.push(() => db.destroy());
    await migrateToLatest(db);

    const caughtUp = async (timeoutMs = 15_000) => {
      const [{ lsn } = { lsn: '' }] = await query<{ lsn: string }>(
        admin,
        'select pg_current_wal_lsn()::text as lsn',
      );
      await until(
        `the replica has replayed up to ${lsn}`,
        async () =>
          (
            await query<{ ok: boolean }>(
              databaseUrlOf(replica.url, 'postgres'),
              'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok',
              [lsn],
            )
          )[0]?.ok === true,
        timeoutMs,
      );
    };
    await caughtUp(60_000);
    const replicaDb = createDb({ url: replicaUrl, poolSize: 2, applicationName: 'evds-test-replica' });
    cleanups.push(() => replicaDb.destroy());

    return {
      primary,
      replica,
      primaryUrl,
      replicaUrl,
      db,
      replicaDb,
      caughtUp,
      pauseReplay: async () => {
        await sql`select pg_wal_replay_pause()`.execute(replicaDb);
        // Pausing is requested, then takes effect; "paused" means no record is applied from now on.
        await until(
          'replay is paused',
          async () =>
            (await sql<{ s: string }>`select pg_get_wal_replay_pause_state() as s`.execute(replicaDb)).rows[0]
              ?.s === 'paused',
          10_000,
        );
      },
      resumeReplay: async () => {
        await sql`select pg_wal_replay_resume()`.execute(replicaDb);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
