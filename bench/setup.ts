// What the benchmarks share (run.ts, isolation.ts): the backing servers and a fresh database of their
// own, workspaces, the receiver process, webhook targets, the services' environment, the load
// generator as a process, and the /proc readers and percentiles their figures come from.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { provisionWorkspace } from '@evds/accounts';
import { serviceNodeOptions } from '@evds/config';
import { createDb, migrateToLatest, type Db } from '@evds/db';
import { newId } from '@evds/domain';
import { createDatabaseIfMissing, ensureBacking, type BackingServers } from '@evds/localenv';
import { createRedis } from '@evds/queue';
import { createSecretBox, newSigningSecret } from '@evds/secrets';
import { createTestCa, type TestCa } from '@evds/testkit';
import pg from 'pg';

export const root = fileURLToPath(new URL('..', import.meta.url));

export interface Bench {
  backing: BackingServers;
  databaseUrl: string;
  db: Db;
  box: ReturnType<typeof createSecretBox>;
  ca: TestCa;
  /** Holds the receiver's key.pem and cert.pem, and any scratch files a benchmark writes. */
  tlsDir: string;
  env: Record<string, string> & { REDIS_PREFIX: string };
  /** Production refuses a private allow-list, and the receivers are on 127.0.0.1: workers run as 'test'. */
  workerEnv: Record<string, string>;
}

/** Backing servers, `database` dropped and created afresh and migrated, a test CA, the services' env. */
export async function startBench(database: string, log: (m: string) => void): Promise<Bench> {
  const backing = await ensureBacking({ dataDir: `${root}.data/bench`, log });
  const admin = new pg.Client({ connectionString: `${backing.postgresUrl}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
  const databaseUrl = await createDatabaseIfMissing(backing.postgresUrl, database);
  const db = createDb({ url: databaseUrl, poolSize: 4 });
  await migrateToLatest(db);

  const encryptionKeys = `bench:${randomBytes(32).toString('base64')}`;
  const ca = await createTestCa();
  const tlsDir = join(tmpdir(), `evds-bench-${process.pid}`);
  mkdirSync(tlsDir, { recursive: true });
  writeFileSync(join(tlsDir, 'key.pem'), ca.server.key);
  writeFileSync(join(tlsDir, 'cert.pem'), ca.server.cert);

  const overrides = Object.fromEntries(
    Object.entries(process.env)
      .filter((e): e is [string, string] => e[0].startsWith('EVDS_BENCH_ENV_') && e[1] !== undefined)
      .map(([k, v]) => [k.slice(15), v]),
  );
  const env: Bench['env'] = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    REDIS_URL: backing.redisUrl,
    REDIS_PREFIX: `evdsbench${randomBytes(3).toString('hex')}`,
    ENCRYPTION_KEYS: encryptionKeys,
    NODE_EXTRA_CA_CERTS: ca.caFile,
    // The per-target limit is a policy, not capacity: raised here so it never answers 429.
    INGEST_RATE_LIMIT: '1000000000',
    // As deployed (per service: packages/config node-options.ts); EVDS_BENCH_ENV_NODE_OPTIONS replaces them.
    NODE_OPTIONS: serviceNodeOptions('ingest'),
    PORT: '0',
    HOST: '127.0.0.1',
    ...overrides,
  };
  const workerEnv = {
    ...env,
    NODE_ENV: 'test',
    NETGUARD_ALLOW_CIDRS: '127.0.0.0/8',
    NODE_OPTIONS: overrides.NODE_OPTIONS ?? serviceNodeOptions('delivery-worker'),
  };
  return { backing, databaseUrl, db, box: createSecretBox(encryptionKeys), ca, tlsDir, env, workerEnv };
}

/** Removes every Redis key matching `pattern` (on each master of a cluster). */
export async function dropKeys(redisUrl: string, pattern: string): Promise<void> {
  const redis = createRedis(redisUrl, { role: 'client' });
  for (const node of 'nodes' in redis ? redis.nodes('master') : [redis])
    for await (const keys of node.scanStream({ match: pattern, count: 1000 }))
      if ((keys as string[]).length) await node.unlink(...(keys as string[]));
  redis.disconnect();
}

/**
 * Removes every Redis key of the run's prefix (queues, flow control, rate limits, caches): a run on a
 * long-lived Redis leaves nothing behind.
 */
export const dropRunKeys = (bench: Bench) => dropKeys(bench.backing.redisUrl, `*${bench.env.REDIS_PREFIX}*`);

/** An exempt organization with one user and one API key. */
export const provision = (db: Db, name: string) =>
  provisionWorkspace(db, {
    orgName: name,
    slug: name.toLowerCase(),
    email: `${name.toLowerCase()}@example.test`,
    userName: name,
    password: randomBytes(9).toString('hex'),
    billingStatus: 'exempt',
  });

export async function insertWebhookTarget(
  bench: Bench,
  orgId: string,
  name: string,
  url: string,
): Promise<string> {
  const id = newId();
  await bench.db
    .insertInto('targets')
    .values({
      id,
      org_id: orgId,
      kind: 'webhook',
      name,
      description: null,
      url,
      signing_secret: bench.box.seal(newSigningSecret(), { id, column: 'signing_secret' }),
      previous_signing_secret: null,
      inbound_secret: null,
      agent_card_url: null,
      a2a_interface: null,
      a2a_card: null,
      a2a_card_etag: null,
      a2a_card_fetched_at: null,
      a2a_auth_type: null,
      a2a_auth_token: null,
      deleted_at: null,
    })
    .execute();
  return id;
}

export interface ReceiverProcess {
  port: number;
  /** GET on the control port: /reset forgets arrivals, /arrivals lists them (webhook-id -> epoch ms). */
  control(path: string): Promise<{ count: number; arrivals?: Record<string, number> }>;
  kill(): void;
}

/**
 * A benchmark process (`script` from the repository root) with only PATH and `env`, once it has written
 * its first line: one JSON object saying it is ready (its ports, say). stderr goes to the benchmark's.
 */
export async function spawnReady(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcessByStdio<null, Readable, null>; line: unknown }> {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString().split('\n')[0]!)));
  });
  return { child, line };
}

/** bench/receiver.ts as its own process, serving the test CA's 127.0.0.1 certificate. */
export async function startReceiver(bench: Bench): Promise<ReceiverProcess> {
  const { child, line } = await spawnReady('bench/receiver.ts', {
    TLS_KEY: join(bench.tlsDir, 'key.pem'),
    TLS_CERT: join(bench.tlsDir, 'cert.pem'),
  });
  const ports = line as { port: number; controlPort: number };
  return {
    port: ports.port,
    control: (path) =>
      fetch(`http://127.0.0.1:${ports.controlPort}${path}`, { headers: { connection: 'close' } }).then(
        (r) => r.json() as Promise<{ count: number; arrivals?: Record<string, number> }>,
      ),
    kill: () => void child.kill('SIGTERM'),
  };
}

/** Waits (up to `timeoutMs`) until every sent id arrived; answers the arrivals seen by then. */
export async function awaitArrivals(
  receiver: ReceiverProcess,
  sent: Record<string, number>,
  timeoutMs = 30_000,
): Promise<Record<string, number>> {
  const deadline = Date.now() + timeoutMs;
  let arrivals: Record<string, number> = {};
  while (Date.now() < deadline) {
    arrivals = (await receiver.control('/arrivals')).arrivals ?? {};
    if (Object.keys(sent).every((id) => id in arrivals)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return arrivals;
}

/** Sent-to-arrived milliseconds of every id that arrived, sorted. */
export const latenciesOf = (sent: Record<string, number>, arrivals: Record<string, number>) =>
  Object.entries(sent)
    .filter(([id]) => id in arrivals)
    .map(([id, at]) => (arrivals[id] ?? 0) - at)
    .sort((a, b) => a - b);

export const pct = (xs: number[], p: number) =>
  xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? null;

export type LoadResult = Record<string, number | null> & { sent?: Record<string, number> };

/**
 * bench/load.ts as its own process. Asynchronous, so the benchmark's own event loop keeps serving
 * (a receiver it hosts, its polling) and several generators can run at once.
 */
export function runLoad(
  base: { url: string; key: string; targets: string[]; seconds: number },
  args: string[],
): Promise<LoadResult> {
  const child = spawn(
    process.execPath,
    [
      'bench/load.ts',
      '--url',
      base.url,
      '--key',
      base.key,
      '--targets',
      base.targets.join(','),
      '--seconds',
      String(base.seconds),
      ...args,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`load generator failed: ${Buffer.concat(err).toString()}`));
      else resolve(JSON.parse(Buffer.concat(out).toString()) as LoadResult);
    }),
  );
}

export const r1 = (x: number | null | undefined) =>
  x === null || x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(1);

/** Rows of columns, each column padded to its widest cell. */
export function printTable(rows: string[][]): void {
  const w = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  for (const r of rows) console.log(r.map((c, i) => (i < r.length - 1 ? c.padEnd(w[i] ?? 0) : c)).join('  '));
}

/**
 * SQL for an id as newId makes them (12 hex digits of the time in ms, then 20 random ones), so seeded
 * and pgbench rows land in indexes and partitions as the service's own do. `salt` varies the random part.
 */
export const timeOrderedIdSql = (salt: string): string =>
  `lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || substr(md5(random()::text || (${salt})::text), 1, 20)`;
