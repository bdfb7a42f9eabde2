// The benchmark's webhook receiver, run as its own process: HTTPS with keep-alive on 127.0.0.1,
// answers 204 at once and records when each webhook-id arrived. A plain HTTP control port reports.
// Requests are read straight off the TLS socket (head, then a Content-Length body), as the load
// generator writes its own (bench/raw-http.ts): on this 2-core machine node:https's request and
// response objects cost the receiver more CPU than the TLS itself, CPU the worker under test waits for.
import { readFileSync } from 'node:fs';
import { createServer as createHttp } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:tls';

const arrivals = new Map<string, number>();
let count = 0;
const HEAD_END = Buffer.from('\r\n\r\n');
const NO_CONTENT = Buffer.from('HTTP/1.1 204 No Content\r\nkeep-alive: timeout=60\r\n\r\n');

const server = createServer(
  { key: readFileSync(process.env.TLS_KEY ?? ''), cert: readFileSync(process.env.TLS_CERT ?? '') },
  (socket) => {
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('error', () => socket.destroy());
    socket.on('data', (d: Buffer) => {
      buffered = buffered.length === 0 ? d : Buffer.concat([buffered, d]);
      for (;;) {
        const end = buffered.indexOf(HEAD_END);
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        // Every delivery has a Content-Length body; anything else is not a request this bench sends.
        if (!length) return void socket.destroy();
        const total = end + 4 + Number(length[1]);
        if (buffered.length < total) return;
        buffered = buffered.subarray(total);
        const at = performance.timeOrigin + performance.now();
        count++;
        const id = /\r\nwebhook-id: *([^\r]+)/i.exec(head)?.[1];
        if (id !== undefined && !arrivals.has(id)) arrivals.set(id, at);
        socket.write(NO_CONTENT);
      }
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
