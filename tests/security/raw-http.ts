// A bare HTTP/1.1 client over a socket: fetch and node:http refuse to send what a hostile client can
// (control characters in headers, invalid UTF-8, any content type with any bytes), so the fuzz suite
// writes requests byte for byte and reads the answer whole, with a deadline that makes a hang a failure.
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** Request target, sent as is (already percent-encoded where wanted). */
  path: string;
  /** Sent in order; values are written as latin1, one byte per character. */
  headers: [string, string][];
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export class HangError extends Error {}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parse(data: Buffer): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(end + 4);
  const length = headers['content-length'];
  const body =
    headers['transfer-encoding'] === 'chunked'
      ? decodeChunked(rest)
      : length !== undefined
        ? rest.subarray(0, Number(length))
        : rest;
  return { status, headers, body };
}

/**
 * Sends one request on its own connection (`Connection: close`) and resolves with the whole answer;
 * rejects with HangError when no complete answer came within `timeoutMs`. A server that answers before
 * reading the whole body (413) may reset the connection while the body is still being written: the
 * answer read so far counts.
 */
export function rawRequest(port: number, req: RawRequest, timeoutMs: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const finish = (err?: Error) => {
      const parsed = parse(Buffer.concat(chunks));
      if (parsed) settle(() => resolve(parsed));
      else settle(() => reject(err ?? new Error('connection closed without a complete answer')));
    };
    const timer = setTimeout(() => {
      const parsed = parse(Buffer.concat(chunks));
      settle(() =>
        reject(
          new HangError(
            `no complete answer in ${timeoutMs} ms${parsed ? ` (got ${parsed.status} so far)` : ''}`,
          ),
        ),
      );
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err) => finish(err));
    socket.on('connect', () => {
      const body = req.body ?? Buffer.alloc(0);
      const names = new Set(req.headers.map(([n]) => n.toLowerCase()));
      const head = [
        `${req.method} ${req.path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Connection: close',
        ...req.headers.map(([n, v]) => `${n}: ${v}`),
        ...(names.has('content-length') || (req.body === undefined && req.method === 'GET')
          ? []
          : [`Content-Length: ${body.length}`]),
        '',
        '',
      ].join('\r\n');
      socket.write(Buffer.from(head, 'latin1'));
      if (body.length > 0) socket.write(body);
    });
  });
}
