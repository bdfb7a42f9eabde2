// The benchmark's webhook receiver, run as its own process: HTTPS with keep-alive on 127.0.0.1,
// answers 204 at once and records when each webhook-id arrived. A plain HTTP control port reports.
import { readFileSync } from 'node:fs';
import { createServer as createHttp } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

const arrivals = new Map<string, number>();
let count = 0;
const server = createServer(
  {
    key: readFileSync(process.env.TLS_KEY ?? ''),
    cert: readFileSync(process.env.TLS_CERT ?? ''),
    keepAliveTimeout: 60_000,
  },
  (req, res) => {
    const at = performance.timeOrigin + performance.now();
    req.resume();
    req.on('end', () => {
      count++;
      const id = req.headers['webhook-id'];
      if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, at);
      res.writeHead(204).end();
    });
  },
);
server.maxConnections = 1000;
const control = createHttp((req, res) => {
  if (req.url === '/reset') arrivals.clear();
  const body = req.url === '/arrivals' ? { count, arrivals: Object.fromEntries(arrivals) } : { count };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
control.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  control.listen(0, '127.0.0.1', () => {
    const port = (server.address() as AddressInfo).port;
    const controlPort = (control.address() as AddressInfo).port;
    process.stdout.write(JSON.stringify({ port, controlPort }) + '\n');
  });
});
process.on('SIGTERM', () => process.exit(0));
