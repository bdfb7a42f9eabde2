// The latency floors: what this machine answers in, at the benchmark's rates, for the hops the design
// makes every item take and nothing else (bench/floor/ingest.ts and worker.ts, each its own process, as
// the services are): the load generator's request, one durable Postgres commit and one push onto the
// queue before the 202; a pop, the HTTPS POST to the receiver and a Postgres write after it. The queue
// is a Redis list (the least any queue costs: no implementation of the design answers faster on this
// machine) or BullMQ's own add and Worker (what the design's queue costs before any logic). Measured in
// the benchmark's run, with the same generator, receiver and rates as the service's phases, they are
// the ceiling for latency that pgbench is for throughput. Alone: ./scripts/bench.sh floor.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { cpus } from 'node:os';
import { phaseCost, readPhase, usageOf } from './proc.ts';
import {
  awaitArrivals,
  dropKeys,
  dropRunKeys,
  latenciesOf,
  pct,
  printTable,
  r1,
  runLoad,
  spawnReady,
  startBench,
  startReceiver,
  type Bench,
  type LoadResult,
  type ReceiverProcess,
} from './setup.ts';

export type FloorQueue = 'list' | 'bullmq';

export interface Floor {
  /** A Redis list (RPUSH, BLMPOP: the least a queue costs), or BullMQ's add and Worker (the design's). */
  queue: FloorQueue;
  open: LoadResult;
  e2eRate: number;
  e2e: { p50: number | null; p99: number | null; arrived: number; sent: number; answeredP99: number | null };
  /** Cores of the machine busy during the end-to-end phase. */
  e2eCores: number;
  /** CPU ms per item in the end-to-end phase (its warm-up included): ingest, worker, Postgres, Redis. */
  e2eCpuMs: Record<'ingest' | 'worker' | 'postgres' | 'redis', number>;
}

const start = (name: string, env: Record<string, string>) => spawnReady(`bench/floor/${name}.ts`, env);

/** Ends a floor process and waits until it is gone, so the next phase has the machine to itself. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * A fresh floor: a clean slate (a floor is the best this machine does, so no dirty pages are left by
 * the phases before it), an empty table, a queue of its own, and the floor's ingest on it.
 */
async function startIngest(bench: Bench, queue: FloorQueue) {
  await sql`checkpoint`.execute(bench.db);
  await sql`drop table if exists floor_items`.execute(bench.db);
  await sql`create table floor_items (id text primary key, target text not null, payload text not null,
    created_at timestamptz not null default now(), delivered_at timestamptz)`.execute(bench.db);
  const env = {
    DATABASE_URL: bench.databaseUrl,
    REDIS_URL: bench.backing.redisUrl,
    FLOOR_QUEUE: `${bench.env.REDIS_PREFIX}:floor:${randomBytes(3).toString('hex')}`,
    NODE_EXTRA_CA_CERTS: bench.env.NODE_EXTRA_CA_CERTS ?? '',
    ...(queue === 'bullmq' ? { FLOOR_BULLMQ: '1' } : {}),
  };
  const ingest = await start('ingest', { ...env, NODE_OPTIONS: bench.env.NODE_OPTIONS ?? '' });
  return { env, ingest, url: `http://127.0.0.1:${(ingest.line as { port: number }).port}` };
}

const startWorker = (bench: Bench, receiver: ReceiverProcess, env: Record<string, string>) =>
  start('worker', {
    ...env,
    FLOOR_RECEIVER: `https://127.0.0.1:${receiver.port}`,
    NODE_OPTIONS: bench.workerEnv.NODE_OPTIONS ?? '',
  });

/** The floor at 1,000/s open loop (ingest only) and `e2eRate` end to end, `seconds` each after a warm-up. */
export async function latencyFloor(
  bench: Bench,
  receiver: ReceiverProcess,
  opts: { queue: FloorQueue; targets: string[]; connections: number; seconds: number; e2eRate: number },
): Promise<Floor> {
  const { env, ingest, url } = await startIngest(bench, opts.queue);
  const load = (args: string[]) =>
    runLoad({ url, key: 'none', targets: opts.targets, seconds: opts.seconds }, [
      ...['--mode', 'open', '--connections', String(opts.connections), ...args],
    ]);
  try {
    // The open loop's items stay queued (no worker runs, as in the service's phase): dropped before
    // the end-to-end phase, so its worker starts on an empty queue.
    const open = await load(['--rate', '1000', '--warmup', '2']);
    await dropKeys(bench.backing.redisUrl, `${env.FLOOR_QUEUE}*`);
    const worker = await startWorker(bench, receiver, env);
    try {
      await receiver.control('/reset');
      const pids = { ingest: ingest.child.pid, worker: worker.child.pid };
      const before = readPhase(pids);
      const e2e = await load(['--rate', String(opts.e2eRate), '--ids', '--warmup', '3']);
      const items = (e2e.accepted ?? 0) + (e2e.warmupAccepted ?? 0);
      const cost = phaseCost(before, readPhase(pids), items);
      const sent = e2e.sent ?? {};
      const latencies = latenciesOf(sent, await awaitArrivals(receiver, sent));
      return {
        queue: opts.queue,
        open,
        e2eRate: opts.e2eRate,
        e2e: {
          p50: pct(latencies, 50),
          p99: pct(latencies, 99),
          arrived: latencies.length,
          sent: Object.keys(sent).length,
          answeredP99: e2e.p99 ?? null,
        },
        e2eCores: cost.cores.busy,
        e2eCpuMs: cost.cpuMsPerItem,
      };
    } finally {
      await stop(worker.child);
    }
  } finally {
    await stop(ingest.child);
  }
}

export interface DrainFloor {
  queue: FloorQueue;
  ingestPerSecond: number | null;
  ingestCpuMs: number;
  items: number;
  drainPerSecond: number;
  workerCpuMs: number;
}

/**
 * The throughput target's floor: the floor's ingest in a closed loop (`connections`, no worker
 * running), then its worker draining what that left, each rate taken as the service's are (after a
 * warm-up, and after the drain's first tenth). Arrivals are the receiver's count of requests.
 */
export async function drainFloor(
  bench: Bench,
  receiver: ReceiverProcess,
  opts: { queue: FloorQueue; targets: string[]; connections: number; seconds: number },
): Promise<DrainFloor> {
  const { env, ingest, url } = await startIngest(bench, opts.queue);
  try {
    const ingestCpu = usageOf(ingest.child.pid ?? 0).cpu;
    const closed = await runLoad({ url, key: 'none', targets: opts.targets, seconds: opts.seconds }, [
      ...['--mode', 'closed', '--connections', String(opts.connections), '--warmup', '2'],
    ]);
    const items = (closed.accepted ?? 0) + (closed.warmupAccepted ?? 0);
    const ingestCpuMs = ((usageOf(ingest.child.pid ?? 0).cpu - ingestCpu) * 1000) / items;
    const base = (await receiver.control('/')).count;
    const worker = await startWorker(bench, receiver, env);
    try {
      const workerCpu = usageOf(worker.child.pid ?? 0).cpu;
      const deadline = performance.now() + 300_000;
      let steady: { at: number; n: number } | undefined;
      let n = 0;
      while (n < items && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        n = (await receiver.control('/')).count - base;
        if (!steady && n >= items / 10) steady = { at: performance.now(), n };
      }
      if (n < items) throw new Error(`drain floor (${opts.queue}): ${n} of ${items} arrived`);
      return {
        queue: opts.queue,
        ingestPerSecond: closed.perSecond ?? null,
        ingestCpuMs,
        items,
        drainPerSecond: (items - steady!.n) / ((performance.now() - steady!.at) / 1000),
        workerCpuMs: ((usageOf(worker.child.pid ?? 0).cpu - workerCpu) * 1000) / items,
      };
    } finally {
      await stop(worker.child);
    }
  } finally {
    await stop(ingest.child);
  }
}

/** The drain floor's drain rate over its ingest's closed-loop rate: the drain target's ratio. */
export const drainRatio = (f: DrainFloor | undefined): number | null =>
  f?.ingestPerSecond ? f.drainPerSecond / f.ingestPerSecond : null;

/** The drain floor's row for the benchmark's table. */
export const drainFloorRow = (f: DrainFloor): string[] => [
  `drain floor (${f.queue}), ${f.items} backlog`,
  `${r1(f.drainPerSecond)} deliveries/s`,
  `${drainRatio(f)?.toFixed(2)} of its ingest's closed loop (${r1(f.ingestPerSecond)}/s); CPU ms per item: ingest ${f.ingestCpuMs.toFixed(3)}, worker ${f.workerCpuMs.toFixed(3)}`,
];

/** The floor's rows for the benchmark's table. */
export const floorRows = (f: Floor): string[][] => [
  [
    `latency floor (${f.queue}), open loop, 1,000/s`,
    `p50 ${r1(f.open.p50)} ms`,
    `p99 ${r1(f.open.p99)} ms, max ${r1(f.open.max)} ms, errors ${f.open.errors}`,
  ],
  [
    `latency floor (${f.queue}), end to end, ${f.e2eRate}/s`,
    `p50 ${r1(f.e2e.p50)} ms`,
    `p99 ${r1(f.e2e.p99)} ms (${f.e2e.arrived}/${f.e2e.sent} arrived); 202 p99 ${r1(f.e2e.answeredP99)} ms`,
  ],
  [
    `latency floor (${f.queue}), end to end, CPU per item`,
    `ingest ${f.e2eCpuMs.ingest.toFixed(3)} ms`,
    `worker ${f.e2eCpuMs.worker.toFixed(3)} ms, Postgres ${f.e2eCpuMs.postgres.toFixed(3)} ms, Redis ${f.e2eCpuMs.redis.toFixed(3)} ms; machine ${f.e2eCores.toFixed(2)} of ${cpus().length} cores busy`,
  ],
];

/**
 * Both floors, the list's then BullMQ's: each its latency, then its drain. `log` names each as it
 * starts.
 */
export async function measureFloors(
  bench: Bench,
  receiver: ReceiverProcess,
  opts: { targets: string[]; connections: number; seconds: number; e2eRate: number },
  log: (m: string) => void,
): Promise<{ floors: Floor[]; drainFloors: DrainFloor[] }> {
  const floors: Floor[] = [];
  const drainFloors: DrainFloor[] = [];
  for (const queue of ['list', 'bullmq'] as const) {
    log(`latency floor (${queue})`);
    floors.push(await latencyFloor(bench, receiver, { ...opts, queue }));
    log(`drain floor (${queue})`);
    drainFloors.push(await drainFloor(bench, receiver, { ...opts, queue }));
  }
  return { floors, drainFloors };
}

if (import.meta.main) {
  const log = (m: string) => process.stderr.write(`floor: ${m}\n`);
  const bench = await startBench('evds_bench', log);
  const receiver = await startReceiver(bench);
  const { floors, drainFloors } = await measureFloors(
    bench,
    receiver,
    {
      targets: Array.from({ length: 16 }, (_, i) => `t${i}`),
      connections: 64,
      seconds: Number(process.env.BENCH_SECONDS ?? 20),
      e2eRate: Number(process.env.BENCH_E2E_RATE ?? 500),
    },
    log,
  );
  printTable([...floors.flatMap(floorRows), ...drainFloors.map(drainFloorRow)]);
  receiver.kill();
  await bench.db.destroy();
  await dropRunKeys(bench);
  await bench.backing.stop();
  process.exit(0);
}
