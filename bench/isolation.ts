// The isolation benchmark: does a tenant whose endpoint hangs, and one whose endpoint refuses
// connections, cost a healthy tenant its throughput or latency? Ingest, one delivery worker and the
// receiver run as processes of their own, with the service defaults for every flow-control setting.
// Organization A has 4 targets on the receiver; B's target accepts TLS and never answers (a server in
// this process); C's is a port where nothing listens. The same healthy open-loop load to A runs twice
// in one run: alone, then right after 1,000 items were queued to each of B and C while both keep
// sending. Prints one table and writes bench/results/isolation-<time>.json. The issue's bar: with the
// bad tenants, at least 90% of the healthy throughput and p99 within 2x.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { unusedPort } from '@evds/localenv';
import { spawnService, type ServiceProcess } from '@evds/testkit';
import { sql } from 'kysely';
import {
  awaitArrivals,
  dropRunKeys,
  insertWebhookTarget,
  latenciesOf,
  pct,
  printTable,
  provision,
  r1,
  root,
  runLoad,
  startBench,
  startReceiver,
  type LoadResult,
} from './setup.ts';
import { cpuSeconds } from './proc.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RATE = Number(process.env.BENCH_ISO_RATE ?? 300);
const BAD_RATE = 50;
const BACKLOG = 1000;
const HEALTHY_TARGETS = 4;
const log = (m: string) => process.stderr.write(`isolation: ${m}\n`);

/** Accepts connections and requests and never answers; counts what it holds. */
async function startHangingServer(tls: { key: string; cert: string }) {
  const stats = { requests: 0, open: 0, maxOpen: 0 };
  const server = createServer(tls, (req, res) => {
    stats.requests++;
    stats.maxOpen = Math.max(++stats.open, stats.maxOpen);
    req.resume();
    // The sender gives up (its time-out) and closes the connection: that ends the hold.
    res.once('close', () => stats.open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stats: () => ({ ...stats }),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const bench = await startBench('evds_bench_iso', log);
const { db, env, workerEnv } = bench;
const receiver = await startReceiver(bench);
const hanging = await startHangingServer(bench.ca.server);
// Free a moment ago and nothing of ours listens on it: connections to it are refused.
const refusedPort = await unusedPort();
const [orgA, orgB, orgC] = [
  await provision(db, 'IsoA'),
  await provision(db, 'IsoB'),
  await provision(db, 'IsoC'),
];
const healthyTargets: string[] = [];
for (let i = 0; i < HEALTHY_TARGETS; i++)
  healthyTargets.push(
    await insertWebhookTarget(bench, orgA.orgId, `a ${i}`, `https://127.0.0.1:${receiver.port}/hook/${i}`),
  );
const hangTarget = await insertWebhookTarget(
  bench,
  orgB.orgId,
  'b',
  `https://127.0.0.1:${hanging.port}/hook`,
);
const refusedTarget = await insertWebhookTarget(
  bench,
  orgC.orgId,
  'c',
  `https://127.0.0.1:${refusedPort}/hook`,
);

const services: ServiceProcess[] = [];
const stop = async (code: number) => {
  hanging.close();
  await Promise.all(services.map((p) => p.kill('SIGTERM')));
  receiver.kill();
  await db.destroy();
  await dropRunKeys(bench);
  await bench.backing.stop();
  process.exit(code);
};
// Whatever happens, every process this run started is gone within a few minutes.
setTimeout(() => {
  log('not done in 5 minutes: stopping');
  hanging.close();
  for (const p of services) void p.kill('SIGKILL');
  receiver.kill();
  process.exit(1);
}, 300_000).unref();

const ingest = await spawnService('ingest', env);
services.push(ingest);
const worker = await spawnService('delivery-worker', workerEnv);
services.push(worker);

const sendTo = (key: string, targets: string[], rate: number, seconds: number, ids = false) =>
  runLoad({ url: ingest.url, key, targets, seconds }, [
    '--mode',
    'open',
    '--rate',
    String(rate),
    '--connections',
    '32',
    ...(ids ? ['--ids'] : []),
  ]);

/** The worker's held and circuit counters (cumulative since it started). */
async function workerCounters(): Promise<Record<string, number>> {
  const text = await fetch(`${worker.metricsUrl}/metrics`, { headers: { connection: 'close' } }).then((r) =>
    r.text(),
  );
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^evds_(deliveries_held|circuit_transitions)_total\{[^}]*(?:reason|move)="(\w+)"[^}]*\} (\S+)$/gm,
  ))
    out[`${m[1]}:${m[2]}`] = (out[`${m[1]}:${m[2]}`] ?? 0) + Number(m[3]);
  return out;
}

/**
 * A's healthy load for SECONDS, alongside `others`; A's figures from the receiver's arrival times.
 * The worker's CPU and counters include `before` (the bad tenants' backlog): that work is theirs.
 */
async function phase(others: () => Promise<LoadResult>[], before?: () => Promise<void>) {
  await receiver.control('/reset');
  const countersBefore = await workerCounters();
  const cpuBefore = cpuSeconds(worker);
  await before?.();
  const [healthy, ...rest] = await Promise.all([
    sendTo(orgA.apiKey, healthyTargets, RATE, SECONDS, true),
    ...others(),
  ]);
  const sent = healthy?.sent ?? {};
  const arrivals = await awaitArrivals(receiver, sent);
  const cpuMs = (cpuSeconds(worker) - cpuBefore) * 1000;
  const latencies = latenciesOf(sent, arrivals);
  // Delivered throughput: A's arrivals inside the phase's own window, from its first scheduled send.
  const start = Math.min(...Object.values(sent));
  const inWindow = Object.keys(sent).filter((id) => (arrivals[id] ?? Infinity) < start + SECONDS * 1000);
  const countersAfter = await workerCounters();
  return {
    rate: RATE,
    accepted: healthy?.accepted ?? 0,
    ingestErrors: healthy?.errors ?? 0,
    arrived: latencies.length,
    deliveredPerSecond: inWindow.length / SECONDS,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    max: latencies.at(-1) ?? null,
    workerCpuMsPerDelivery: cpuMs / Math.max(1, latencies.length),
    otherLoads: rest.map((r) => ({ accepted: r.accepted, errors: r.errors })),
    workerCounters: Object.fromEntries(
      Object.entries(countersAfter).map(([k, v]) => [k, v - (countersBefore[k] ?? 0)]),
    ),
  };
}

try {
  // The fresh worker opens its connections and warms up first: not measured.
  log('warm-up');
  await sendTo(orgA.apiKey, healthyTargets, RATE, 3);
  await new Promise((r) => setTimeout(r, 1000));

  log(`baseline: ${RATE}/s to A for ${SECONDS} s`);
  const baseline = await phase(() => []);

  let backlog: LoadResult[] = [];
  const withBad = await phase(
    () => {
      log(`with bad tenants: ${RATE}/s to A, ${BAD_RATE}/s each to B and C`);
      return [
        sendTo(orgB.apiKey, [hangTarget], BAD_RATE, SECONDS),
        sendTo(orgC.apiKey, [refusedTarget], BAD_RATE, SECONDS),
      ];
    },
    async () => {
      log(`queueing ${BACKLOG} items each to B (hangs) and C (refused)`);
      backlog = await Promise.all([
        sendTo(orgB.apiKey, [hangTarget], BACKLOG / 2, 2),
        sendTo(orgC.apiKey, [refusedTarget], BACKLOG / 2, 2),
      ]);
    },
  );
  const hang = hanging.stats();
  const statuses = await sql<{ target_id: string; status: string; n: string }>`
    select target_id, status, count(*) as n from events where target_id in (${hangTarget}, ${refusedTarget})
    group by 1, 2 order by 1, 2`.execute(db);
  const badStatus = (t: string) =>
    statuses.rows
      .filter((r) => r.target_id === t)
      .map((r) => `${r.status} ${r.n}`)
      .join(', ');

  const result = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    setup: `A: ${HEALTHY_TARGETS} healthy targets at ${RATE}/s; B hangs, C refused: ${BACKLOG} queued each, then ${BAD_RATE}/s each; flow-control defaults`,
    seconds: SECONDS,
    baseline,
    withBad,
    backlogAccepted: backlog.map((r) => r.accepted),
    ratios: {
      throughput: withBad.deliveredPerSecond / baseline.deliveredPerSecond,
      p99: (withBad.p99 ?? NaN) / (baseline.p99 ?? NaN),
    },
    hangingServer: hang,
    badTargets: { hanging: badStatus(hangTarget), refused: badStatus(refusedTarget) },
  };
  mkdirSync(`${root}bench/results`, { recursive: true });
  const file = `${root}bench/results/isolation-${result.at.replace(/[:.]/g, '-')}.json`;
  writeFileSync(file, JSON.stringify(result, null, 2));

  const row = (name: string, p: typeof baseline) => [
    name,
    `${p.rate}/s`,
    `${r1(p.deliveredPerSecond)}/s`,
    `${r1(p.p50)} ms`,
    `${r1(p.p99)} ms`,
    `${p.workerCpuMsPerDelivery.toFixed(3)} ms`,
    `${p.arrived}/${p.accepted}`,
  ];
  const ok = result.ratios.throughput >= 0.9 && result.ratios.p99 <= 2;
  console.log(
    `\nhealthy tenant A, ${SECONDS} s phases; ${result.machine.cpus} cores, Node ${process.version}`,
  );
  printTable([
    ['phase', 'rate', 'delivered', 'p50', 'p99', 'worker CPU/delivery', 'arrived'],
    row('baseline', baseline),
    row('with B (hangs) and C (refused)', withBad),
  ]);
  console.log(
    `ratios with/without: throughput ${result.ratios.throughput.toFixed(3)} (>= 0.90), p99 ${result.ratios.p99.toFixed(2)} (<= 2): ${ok ? 'met' : 'NOT met'}`,
  );
  console.log(
    `hanging server: ${hang.requests} requests, at most ${hang.maxOpen} open at once (target cap 10); B: ${result.badTargets.hanging}; C: ${result.badTargets.refused}`,
  );
  console.log(
    `worker counters over the backlog and second phase: ${Object.entries(withBad.workerCounters)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  console.log(`\nwritten to ${file}`);
  await stop(0);
} catch (err) {
  log(String(err));
  await stop(1);
}
