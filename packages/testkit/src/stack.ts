import type { Env } from '@evds/config';
import type { Db } from '@evds/db';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { testEnv } from './env.ts';
import { client, type Client } from './http.ts';
import { spawnService, type ServiceName, type ServiceProcess } from './processes.ts';
import { startReceiver, type Behaviour, type Receiver } from './receiver.ts';
import { createTestCa } from './tls.ts';

export interface Stack {
  env: Env;
  database: TestDatabase;
  db: Db;
  processes: Map<ServiceName, ServiceProcess>;
  api: Client;
  ingest: Client;
  /** Starts (or starts again) one service with the stack's environment. */
  start(name: ServiceName): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/**
 * The services as separate processes over one test database and Redis prefix, the way they run in
 * production. Retry delays and the sweeper are shortened so a test walks a whole schedule in seconds,
 * and circuits never open: a suite that walks a failing target's whole schedule would otherwise wait
 * for probes. The suites about isolation and circuits set the circuit's real values themselves.
 */
export async function startStack(
  opts: { env?: Env; services?: ServiceName[]; caFile?: string } = {},
): Promise<Stack> {
  const database = await createTestDatabase();
  const env = testEnv(database.url, {
    LOG_LEVEL: 'info',
    RETRY_DELAYS_MS: '100,200,300,400,500',
    SWEEP_INTERVAL_MS: '500',
    SWEEP_GRACE_MS: '1000',
    DELIVERY_TIMEOUT_MS: '2000',
    WORKER_LOCK_MS: '5000',
    CIRCUIT_FAILURE_THRESHOLD: '1000000',
    ...(opts.caFile ? { NODE_EXTRA_CA_CERTS: opts.caFile } : {}),
    ...opts.env,
  });
  const processes = new Map<ServiceName, ServiceProcess>();
  const start = async (name: ServiceName) => {
    const p = await spawnService(name, env);
    processes.set(name, p);
    return p;
  };
  const stack: Stack = {
    env,
    database,
    db: database.db,
    processes,
    api: client(''),
    ingest: client(''),
    start,
    stop: async () => {
      await Promise.all([...processes.values()].map((p) => p.kill('SIGTERM')));
      await database.drop();
    },
  };
  try {
    for (const name of opts.services ?? ['api', 'ingest', 'delivery-worker']) await start(name);
  } catch (err) {
    await stack.stop();
    throw err;
  }
  const url = (name: ServiceName) => processes.get(name)?.url ?? 'http://127.0.0.1:1';
  stack.api = client(url('api'));
  stack.ingest = client(url('ingest'));
  return stack;
}

/**
 * A stack whose workers trust a fresh test CA, and a real HTTPS receiver on 127.0.0.1 with a
 * certificate from it: the set-up of every delivery suite.
 */
export async function startStackWithReceiver(
  opts: { env?: Env; services?: ServiceName[]; behaviour?: Behaviour } = {},
): Promise<{ stack: Stack; receiver: Receiver }> {
  const ca = await createTestCa();
  const receiver = await startReceiver(ca.server, opts.behaviour);
  try {
    const stack = await startStack({ env: opts.env, services: opts.services, caFile: ca.caFile });
    return { stack, receiver };
  } catch (err) {
    await receiver.close();
    throw err;
  }
}
