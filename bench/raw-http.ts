// The benchmark's own HTTP/1.1: the load generator's client (keep-alive connections, one request at a
// time on each, every request's bytes built once) and the message reader the receiver shares. On this
// 2-core machine the generator shares the cores with what it measures, and undici's pool cost it about
// 0.3 ms of CPU a request at 1,000/s, nearly a third of a core that the service under test waited for.
// This does the least a request needs: one write of ready bytes, and reading the status line,
// Content-Length and body of the answer.
import { connect, type Socket } from 'node:net';

export interface Answer {
  status: number;
  body: Buffer;
}

interface Connection {
  socket: Socket;
  buffered: Buffer;
  pending?: { resolve: (a: Answer) => void; reject: (e: Error) => void };
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** One POST's bytes: request line, host, the given headers, Content-Length, body. */
export function postBytes(url: string, path: string, headers: Record<string, string>, body: string): Buffer {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  const head = `POST ${path} HTTP/1.1\r\nhost: ${new URL(url).host}\r\n${lines.join('')}`;
  return Buffer.from(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/**
 * The complete HTTP/1.1 message (request or answer) at the start of `buf`: its head, its body and its
 * length, or undefined while it is incomplete. Every message the benchmark sends or answers carries a
 * Content-Length; one without is an error.
 */
export function nextMessage(buf: Buffer): { head: string; body: Buffer; length: number } | undefined {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return undefined;
  const head = buf.subarray(0, end).toString('latin1');
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (!length) throw new Error('HTTP message without Content-Length');
  const total = end + 4 + Number(length[1]);
  if (buf.length < total) return undefined;
  return { head, body: buf.subarray(end + 4, total), length: total };
}

export class RawPool {
  private readonly idle: Connection[] = [];
  private readonly queued: ((c: Connection) => void)[] = [];
  private readonly all = new Set<Connection>();
  private readonly port: number;
  private readonly host: string;

  constructor(url: string, connections: number) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port);
    for (let i = 0; i < connections; i++) this.idle.push(this.open());
  }

  /**
   * Sends ready request bytes on a free connection (waiting for one) and answers its response. A
   * connection that closed is replaced by a fresh one when its turn comes.
   */
  async request(bytes: Buffer): Promise<Answer> {
    let c = this.idle.pop() ?? (await new Promise<Connection>((r) => this.queued.push(r)));
    if (c.socket.destroyed) c = this.open();
    try {
      return await new Promise<Answer>((resolve, reject) => {
        c.pending = { resolve, reject };
        c.socket.write(bytes);
      });
    } finally {
      const waiter = this.queued.shift();
      if (waiter) waiter(c);
      else this.idle.push(c);
    }
  }

  close(): void {
    for (const c of this.all) c.socket.destroy();
  }

  private open(): Connection {
    const c: Connection = { socket: connect(this.port, this.host), buffered: Buffer.alloc(0) };
    this.all.add(c);
    c.socket.setNoDelay(true);
    c.socket.on('data', (d: Buffer) => {
      c.buffered = c.buffered.length === 0 ? d : Buffer.concat([c.buffered, d]);
      let message;
      try {
        message = nextMessage(c.buffered);
      } catch (err) {
        c.socket.destroy(err as Error);
        return;
      }
      if (!message) return;
      c.buffered = c.buffered.subarray(message.length);
      const p = c.pending;
      c.pending = undefined;
      // The status line: "HTTP/1.1 202 Accepted".
      p?.resolve({ status: Number(message.head.slice(9, 12)), body: message.body });
    });
    const fail = (err?: Error) => {
      this.all.delete(c);
      const p = c.pending;
      c.pending = undefined;
      p?.reject(err ?? new Error('connection closed'));
    };
    c.socket.on('error', fail);
    c.socket.on('close', () => fail());
    return c;
  }
}
