// The fault harness shared by tests/faults and bench/soak.ts: services as separate processes over a
// private Postgres and a private Redis of their own (never the machine's shared servers, which other
// test files use at the same time) and a receiver whose answers can be made to fail. The five faults
// themselves are in fault-injection.ts.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '@evds/config';
import { createDb, migrateToLatest, type Db } from '@evds/db';
import {
  createDatabaseIfMissing,
  startRestartablePostgres,
  startRestartableRedis,
  type RestartableRedis,
  type RestartableServer,
} from '@evds/localenv';
import { client } from './http.ts';
import { spawnService, type ServiceName, type ServiceProcess } from './processes.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { createTestCa } from './tls.ts';
import { seedWorkspace, type TestWorkspace } from './workspace.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the receiver answered, per webhook-id: the reconciliation's view of deliveries. */
export interface DeliveryTally {
  ok: Map<string, number>;
  failed: Map<string, number>;
}

export interface FaultReceiver {
  url: string;
  tally: DeliveryTally;
  /**
   * From now on, answer 500 to this share of requests (0 restores normal answers). No webhook-id is
   * failed more than `maxFailuresPerId` times in all, so every item still fits in its retry schedule.
   */
  setFailureRate(rate: number, maxFailuresPerId?: number): void;
  close(): Promise<void>;
}

/**
 * The test receiver with a tally of answers per webhook-id. Answers take `delayMs`, so deliveries are
 * in flight when a worker is killed. Request bodies are not kept (a soak sends hundreds of thousands).
 */
export async function startFaultReceiver(
  tls: { key: string; cert: string },
  delayMs = 20,
): Promise<FaultReceiver> {
  const tally: DeliveryTally = { ok: new Map(), failed: new Map() };
  const bump = (m: Map<string, number>, id: string) => m.set(id, (m.get(id) ?? 0) + 1);
  let rate = 0;
  let maxFailures = 3;
  // The behaviour runs once the receiver exists; it drops what the receiver recorded (the tally is enough).
  const self: { receiver?: Receiver } = {};
  const receiver = await startReceiver(tls, (req) => {
    if (self.receiver) self.receiver.received.length = 0;
    const id = req.headers['webhook-id'] ?? '';
    if (rate > 0 && (tally.failed.get(id) ?? 0) < maxFailures && Math.random() < rate) {
      bump(tally.failed, id);
      return { status: 500, body: '{"error":"injected failure"}', delayMs };
    }
    bump(tally.ok, id);
    return { status: 200, delayMs };
  });
  self.receiver = receiver;
  return {
    url: receiver.url,
    tally,
    setFailureRate: (r, max = 3) => {
      rate = r;
      maxFailures = max;
    },
    close: () => receiver.close(),
  };
}

export interface FaultStackOptions {
  /** Service configuration over the fault defaults below. */
  env?: Env;
  ingestReplicas?: number;
  /** Progress lines (servers started, processes replaced). */
  log?: (msg: string) => void;
}

export interface FaultStack {
  dataDir: string;
  postgres: RestartableServer;
  redis: RestartableRedis;
  databaseUrl: string;
  /** A pool of the harness's own, for reconciliation. */
  db: Db;
  env: Env;
  receiver: FaultReceiver;
  ws: TestWorkspace;
  /** The current processes (replaced ones drop out). */
  api: ServiceProcess;
  ingest: ServiceProcess[];
  worker: ServiceProcess;
  /** Base URLs of the ingest replicas that take traffic now (a load balancer's view). */
  ingestUrls(): string[];
  services(): ServiceProcess[];
  /** Service processes that exited without a fault or stop() killing them, with their last output. */
  unexpectedExits: string[];
  createTarget(kind: 'webhook' | 'mailbox', name: string): Promise<string>;
  /** SIGKILLs a service process and starts a successor with the same configuration. */
  respawn(old: ServiceProcess): Promise<ServiceProcess>;
  /** Writes the output of every process started so far (replaced ones too) into `dir`, one file each. */
  writeLogs(dir: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a private Postgres and Redis in a temp dir on free ports, creates and migrates a database,
 * seeds a workspace and starts api, `ingestReplicas` ingest replicas and one delivery worker against
 * them. Timings are shortened (retries, sweeper, lock) so a fault heals in seconds.
 */
export async function startFaultStack(opts: FaultStackOptions = {}): Promise<FaultStack> {
  const log = opts.log ?? (() => undefined);
  const dataDir = await mkdtemp(join(tmpdir(), 'evds-faults-'));
  const cleanups: (() => Promise<void>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    const postgres = await startRestartablePostgres({ dataDir });
    cleanups.push(() => postgres.stop());
    const redis = await startRestartableRedis({ dataDir });
    cleanups.push(() => redis.stop());
    log(`private postgres ${postgres.url}, private redis ${redis.url} (data ${dataDir})`);

    const databaseUrl = await createDatabaseIfMissing(postgres.url, 'evds');
    const db = createDb({ url: databaseUrl, poolSize: 4, applicationName: 'evds-faults' });
    cleanups.push(() => db.destroy());
    await migrateToLatest(db);
    const ws = await seedWorkspace(db);

    const ca = await createTestCa();
    const receiver = await startFaultReceiver(ca.server);
    cleanups.push(() => receiver.close());

    const env: Env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      DB_POOL_SIZE: '10',
      REDIS_URL: redis.url,
      REDIS_PREFIX: `evdsf_${randomBytes(4).toString('hex')}`,
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: '0',
      ENCRYPTION_KEYS: `faults:${randomBytes(32).toString('base64')}`,
      NETGUARD_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      NODE_EXTRA_CA_CERTS: ca.caFile,
      INGEST_RATE_LIMIT: '10000000',
      RETRY_DELAYS_MS: '100,200,300,400,500',
      // Circuits work as deployed (a failing receiver may open them), with cooldowns shortened like the delays.
      CIRCUIT_COOLDOWN_MS: '500',
      CIRCUIT_COOLDOWN_MAX_MS: '2000',
      SWEEP_INTERVAL_MS: '500',
      SWEEP_GRACE_MS: '1000',
      WORKER_LOCK_MS: '2000',
      DELIVERY_TIMEOUT_MS: '5000',
      DELIVERY_CONCURRENCY: '50',
      SHUTDOWN_TIMEOUT_MS: '5000',
      ...opts.env,
    };

    const killed = new Set<number>();
    const unexpectedExits: string[] = [];
    const spawn = async (name: ServiceName) => {
      const p = await spawnService(name, env, 60_000);
      p.child.once('exit', (code, signal) => {
        if (p.child.pid !== undefined && killed.has(p.child.pid)) return;
        unexpectedExits.push(
          `${name} (pid ${p.child.pid}) exited with ${code ?? signal}:\n${p.output.join('').slice(-2000)}`,
        );
      });
      return p;
    };
    const kill = (p: ServiceProcess, signal: NodeJS.Signals) => {
      if (p.child.pid !== undefined) killed.add(p.child.pid);
      return p.kill(signal);
    };

    const all: ServiceProcess[] = [];
    cleanups.push(() => Promise.all(all.map((p) => kill(p, 'SIGTERM'))).then(() => undefined));
    const started = async (name: ServiceName) => {
      const p = await spawn(name);
      all.push(p);
      return p;
    };
    const api = await started('api');
    const ingest: ServiceProcess[] = [];
    for (let i = 0; i < (opts.ingestReplicas ?? 2); i++) ingest.push(await started('ingest'));
    const worker = await started('delivery-worker');
    const apiClient = client(api.url);

    const stack: FaultStack = {
      dataDir,
      postgres,
      redis,
      databaseUrl,
      db,
      env,
      receiver,
      ws,
      api,
      ingest,
      worker,
      ingestUrls: () => stack.ingest.map((p) => p.url),
      services: () => [stack.api, ...stack.ingest, stack.worker],
      unexpectedExits,
      createTarget: async (kind, name) => {
        const body = kind === 'webhook' ? { kind, name, url: `${receiver.url}/${name}` } : { kind, name };
        const r = await apiClient<{ target: { id: string } }>('/api/v1/targets', { key: ws.apiKey, body });
        if (r.status !== 201) throw new Error(`target creation answered ${r.status}: ${r.text}`);
        return r.body.target.id;
      },
      respawn: async (old) => {
        await kill(old, 'SIGKILL');
        await sleep(300);
        return started(old.name);
      },
      writeLogs: async (dir) => {
        await mkdir(dir, { recursive: true });
        for (const p of all) await writeFile(join(dir, `${p.name}-${p.child.pid}.log`), p.output.join(''));
      },
      stop: cleanup,
    };
    return stack;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** Resident set size of a process in MiB, from /proc/<pid>/status (undefined once it is gone). */
export function rssMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}
