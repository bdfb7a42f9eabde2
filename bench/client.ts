// The client's own CPU per send: `client.send` against a bare `fetch` of the same item to the same server.
//   ./scripts/bench.sh client [sends per round, default 20000] [rounds of each, default 3]
// The server is a separate process (this file run with --serve) answering every POST 202 with a fixed
// body like the ingest service's, so only the sending side's CPU is counted: process.cpuUsage() (user +
// system) around each round of sends, 16 in flight. Rounds alternate bare/client so drift in the machine
// hits both; the median round of each is compared. The bar: under 0.05 ms of CPU per send.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEvdsClient } from '@evds/client';

const LIMIT_MS = 0.05;
const CONCURRENCY = 16;
const ANSWER = JSON.stringify({
  id: 'evt_0123456789abcdef01234567',
  target_id: 'tgt_0123456789abcdef01234567',
  kind: 'webhook',
  status: 'QUEUED',
});
const PAYLOAD = {
  event_type: 'order.paid',
  order: { id: 12345, items: [{ sku: 'A-1', qty: 2 }], total: '19.90' },
  note: 'x'.repeat(120),
};
const KEY = 'evds_sk_benchmark0000000000000000000000';
const TARGET = 'tgt_0123456789abcdef01234567';

/** The stand-in for ingest: reads the body, answers 202 and the fixed JSON, keeps connections open. */
function serve(): void {
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(202, { 'content-type': 'application/json', 'content-length': ANSWER.length });
      res.end(ANSWER);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
  });
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

type Send = () => Promise<unknown>;

/** What a producer writes by hand: the same headers and body, the answer parsed. */
function bareSend(url: string): Send {
  const headers = {
    'user-agent': 'evds-client/1',
    authorization: `Bearer ${KEY}`,
    'content-type': 'application/json',
    'idempotency-key': '7d444840-9dc0-11d1-b245-5ffdce74fad2',
    'x-event-type': 'order.paid',
  };
  return async () => {
    const res = await fetch(`${url}/t/${TARGET}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(PAYLOAD),
    });
    if (res.status !== 202) throw new Error(`answered ${res.status}`);
    return JSON.parse(await res.text()) as unknown;
  };
}

function clientSend(url: string): Send {
  const client = createEvdsClient({ baseUrl: url, apiKey: KEY });
  return () => client.send(TARGET, PAYLOAD, { type: 'order.paid' });
}

/** CPU ms per send over `n` sends, CONCURRENCY at a time. */
async function round(send: Send, n: number): Promise<number> {
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) await send();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => ms.toFixed(4);

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 20_000);
  const rounds = Math.max(3, Number(process.argv[3] ?? 3));
  const server = await startServer();
  try {
    const bare = bareSend(server.url);
    const viaClient = clientSend(server.url);
    // Warm both paths (JIT, connection pool) before anything is counted.
    await round(bare, 2_000);
    await round(viaClient, 2_000);
    const results = { bare: [] as number[], client: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      results.bare.push(await round(bare, n));
      results.client.push(await round(viaClient, n));
      console.log(
        `round ${i + 1}: bare ${fmt(results.bare[i]!)} ms/send, client ${fmt(results.client[i]!)} ms/send`,
      );
    }
    const bareMs = median(results.bare);
    const clientMs = median(results.client);
    const extra = clientMs - bareMs;
    console.log(`\n${n} sends per round, ${CONCURRENCY} in flight, ${rounds} rounds each (median)`);
    console.log(`bare fetch      ${fmt(bareMs)} ms CPU per send`);
    console.log(`client.send     ${fmt(clientMs)} ms CPU per send`);
    console.log(`client overhead ${fmt(extra)} ms per send (limit ${LIMIT_MS})`);
    // A difference smaller than the rounds' own spread is noise of the machine, not the client's cost.
    const spread = (xs: number[]) => fmt(Math.max(...xs) - Math.min(...xs));
    console.log(`round spread    bare ${spread(results.bare)} ms, client ${spread(results.client)} ms`);
    console.log(extra < LIMIT_MS ? 'PASS' : 'FAIL');
    process.exitCode = extra < LIMIT_MS ? 0 : 1;
  } finally {
    server.stop();
  }
}

if (process.argv.includes('--serve')) serve();
else await main();
