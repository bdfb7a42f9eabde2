import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  at: number;
}

/** What the receiver answers to one request, after `delayMs` (slow receivers); `hang` never answers (time-outs). */
export type Behaviour = (
  req: Received,
  n: number,
) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  setBehaviour(b: Behaviour): void;
  /** Resolves once `n` requests have arrived (or rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTPS webhook receiver on 127.0.0.1 that records every request byte for byte. */
export async function startReceiver(
  tls: { key: string; cert: string },
  behaviour: Behaviour = () => ({ status: 200 }),
  /** A fixed port (e.g. one a target already points at, refused until now); default any free one. */
  opts: { port?: number } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  let current = behaviour;
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer(
    { key: tls.key, cert: tls.cert, keepAliveTimeout: 30_000 },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        );
        const r: Received = { path: req.url ?? '/', headers, body: Buffer.concat(chunks), at: Date.now() };
        received.push(r);
        for (const w of waiters.filter((x) => received.length >= x.n)) w.resolve();
        const answer = current(r, received.length);
        if (answer === 'hang') return;
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          res.end(answer.body ?? '{"ok":true}');
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    received,
    setBehaviour: (b) => {
      current = b;
    },
    waitFor: (n, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        if (received.length >= n) return resolve(received);
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve(received)) });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
