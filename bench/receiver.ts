// The benchmark's webhook receiver, run as its own process: HTTPS with keep-alive on 127.0.0.1,
// answers 204 at once and records when each webhook-id arrived. A plain HTTP control port reports.
// Requests are read straight off the TLS socket (head, then a Content-Length body), as the load
// generator reads its answers (bench/raw-http.ts): on this 2-core machine the receiver's CPU is CPU
// the worker under test waits for, and without node:https's request and response objects the drain
// ran about 5% faster.
import { readFileSync } from 'node:fs';
import { createServer as createHttp } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:tls';
import { nextMessage } from './raw-http.ts';

const arrivals = new Map<string, number>();
let count = 0;
const NO_CONTENT = Buffer.from('HTTP/1.1 204 No Content\r\nkeep-alive: timeout=60\r\n\r\n');

const server = createServer(
  { key: readFileSync(process.env.TLS_KEY ?? ''), cert: readFileSync(process.env.TLS_CERT ?? '') },
  (socket) => {
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('error', () => socket.destroy());
    socket.on('data', (d: Buffer) => {
      buffered = buffered.length === 0 ? d : Buffer.concat([buffered, d]);
      for (;;) {
        let message;
        try {
          message = nextMessage(buffered);
        } catch {
          // Every delivery has a Content-Length body; anything else is not a request this bench sends.
          return void socket.destroy();
        }
        if (!message) return;
        buffered = buffered.subarray(message.length);
        const at = performance.timeOrigin + performance.now();
        count++;
        const id = /\r\nwebhook-id: *([^\r]+)/i.exec(message.head)?.[1];
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
