// An ingest probe, run as its own process by the retention benchmark: POSTs items at a fixed rate
// (open loop, latency from each request's scheduled send time) until SIGTERM, and writes one line per
// answer, "<scheduled send, epoch ms> <latency ms> <1 if 202 else 0>", so the benchmark can tell the
// requests made during a maintenance call from the others. (bench/load.ts prints only totals.)
import { parseArgs } from 'node:util';
import { ingestPool, ingestRequests } from '../ingest-request.ts';

const { values: o } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    targets: { type: 'string' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '32' },
  },
});
const targets = (o.targets ?? '').split(',');
const pool = ingestPool(o.url ?? '', Number(o.connections));
const requests = ingestRequests(o.url ?? '', o.key ?? '', 'order.created', targets);

let stopping = false;
process.once('SIGTERM', () => (stopping = true));
const lines: string[] = [];
const flush = () => {
  if (lines.length > 0) process.stdout.write(lines.splice(0).join(''));
};
const flusher = setInterval(flush, 200);

let n = 0;
async function one(scheduledAt: number): Promise<void> {
  let ok: number;
  try {
    const res = await pool.request(requests[n++ % requests.length]!);
    ok = res.status === 202 ? 1 : 0;
  } catch {
    ok = 0;
  }
  const latency = performance.now() - scheduledAt;
  lines.push(`${Math.round(performance.timeOrigin + scheduledAt)} ${latency.toFixed(2)} ${ok}\n`);
}

const interval = 1000 / Number(o.rate);
const started = performance.now();
const inflight = new Set<Promise<void>>();
for (let i = 0; !stopping; i++) {
  const at = started + i * interval;
  const wait = at - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  const p = one(at).finally(() => inflight.delete(p));
  inflight.add(p);
}
await Promise.all(inflight);
clearInterval(flusher);
flush();
pool.close();
