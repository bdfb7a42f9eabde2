// A keep-alive HTTP/1.1 connection written byte for byte, for the suites that must see what a server
// does before a body arrives: a request head can go alone, the answer is read as soon as it is whole,
// and the connection says whether the server then closed it or kept it for the next request.
import { connect, type Socket } from 'node:net';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: { error?: string; code?: string };
}

export interface Connection {
  /** Writes a request head (and `body` when given) and resolves with the complete answer. */
  send(head: { method: string; path: string; headers: [string, string][] }, body?: Buffer): Promise<Answer>;
  /** Writes more bytes (e.g. chunks of a body whose head went first); false once the connection is gone. */
  write(bytes: Buffer): boolean;
  /** True once the server has ended or closed the connection (waits up to `ms` for it). */
  closedWithin(ms: number): Promise<boolean>;
  destroy(): void;
}

export async function openConnection(port: number, timeoutMs = 5_000): Promise<Connection> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let data = Buffer.alloc(0);
  let closed = false;
  const waiting: (() => void)[] = [];
  const wake = () => waiting.splice(0).forEach((fn) => fn());
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    wake();
  });
  for (const event of ['end', 'close', 'error'] as const)
    socket.on(event, () => {
      closed = true;
      wake();
    });

  /** Takes one complete answer off the front of what was received, if there is one. */
  const takeAnswer = (): Answer | undefined => {
    const end = data.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (data.length < end + 4 + length) return undefined;
    const text = data.subarray(end + 4, end + 4 + length).toString('utf8');
    data = data.subarray(end + 4 + length);
    return {
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]),
      headers,
      body: text ? (JSON.parse(text) as Answer['body']) : {},
    };
  };

  const until = <T>(probe: () => T | undefined, ms: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
      const check = () => {
        const found = probe();
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        } else if (closed) {
          clearTimeout(timer);
          reject(new Error(`connection closed before ${what}`));
        } else waiting.push(check);
      };
      check();
    });

  return {
    send(head, body) {
      const text = [
        `${head.method} ${head.path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        ...head.headers.map(([n, v]) => `${n}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(Buffer.from(text, 'latin1'));
      if (body) socket.write(body);
      return until(takeAnswer, timeoutMs, 'complete answer');
    },
    write: (bytes) => !closed && socket.write(bytes),
    closedWithin: (ms) => until(() => (closed ? true : undefined), ms, 'close').catch(() => false),
    destroy: () => socket.destroy(),
  };
}
