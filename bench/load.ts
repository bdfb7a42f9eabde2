// The load generator, run as its own process: POSTs items to the ingest service and prints one JSON
// result line. closed: N connections each sending as soon as its last answer came; open: a fixed
// rate, latency measured from each request's scheduled send time (so queueing delay counts).
// --warmup S: the same load for S seconds first, not counted: a fresh process compiles its own code on
// its first requests and would charge its own slowness to the service.
import { parseArgs } from 'node:util';
import { ingestPool, ingestRequests } from './ingest-request.ts';

const { values: o } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    targets: { type: 'string' },
    mode: { type: 'string' },
    connections: { type: 'string', default: '64' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '0' },
    ids: { type: 'boolean', default: false },
  },
});
const targets = (o.targets ?? '').split(',');
const seconds = Number(o.seconds);
const pool = ingestPool(o.url ?? '', Number(o.connections));
const requests = ingestRequests(o.url ?? '', o.key ?? '', 'bench.event', targets);

const latencies: number[] = [];
const sent: Record<string, number> = {};
let accepted = 0;
let warmupAccepted = 0;
let errors = 0;
let n = 0;

async function one(scheduledAt: number, counted = true): Promise<void> {
  const request = requests[n++ % requests.length]!;
  const startWall = performance.timeOrigin + scheduledAt;
  try {
    const res = await pool.request(request);
    if (!counted) {
      if (res.status === 202) warmupAccepted++;
      return;
    }
    if (res.status === 202) {
      accepted++;
      latencies.push(performance.now() - scheduledAt);
      if (o.ids) sent[(JSON.parse(res.body.toString()) as { id: string }).id] = startWall;
    } else errors++;
  } catch {
    if (counted) errors++;
  }
}

/** The load for `forSeconds` from now; answers when it started. */
async function run(forSeconds: number, counted: boolean): Promise<number> {
  const started = performance.now();
  const end = started + forSeconds * 1000;
  if (o.mode === 'closed') {
    await Promise.all(
      Array.from({ length: Number(o.connections) }, async () => {
        while (performance.now() < end) await one(performance.now(), counted);
      }),
    );
  } else {
    // Only a count of the requests in flight: an array of every request's promise would survive the
    // generator's young-generation collections and make them pauses of 10-16 ms, charged to the service.
    const interval = 1000 / Number(o.rate);
    let inFlight = 0;
    let allAnswered = () => {};
    for (let i = 0; ; i++) {
      const at = started + i * interval;
      if (at >= end) break;
      const wait = at - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      inFlight++;
      void one(at, counted).finally(() => --inFlight === 0 && allAnswered());
    }
    if (inFlight > 0) await new Promise<void>((r) => (allAnswered = r));
  }
  return started;
}

if (Number(o.warmup) > 0) await run(Number(o.warmup), false);
const started = await run(seconds, true);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? null;
process.stdout.write(
  JSON.stringify({
    accepted,
    warmupAccepted,
    errors,
    elapsed,
    perSecond: accepted / elapsed,
    p50: pct(50),
    p99: pct(99),
    max: latencies.at(-1) ?? null,
    ...(o.ids ? { sent } : {}),
  }) + '\n',
);
pool.close();
