// The inbox's HTTPS side: a webhook receiver on 127.0.0.1 that keeps every request it gets (exact
// body bytes included) with the outcome of its signature check, and answers 200 to any POST so
// deliveries to it succeed.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { checkSignature, countV1Signatures, type KnownSecret, type SignatureCheck } from './verify.ts';

export interface InboxRequest {
  id: string;
  /** unix ms */
  received_at: number;
  method: string;
  path: string;
  /** lower-case names; repeated headers joined with ", " */
  headers: Record<string, string>;
  /** the exact body bytes, as UTF-8 */
  body: string;
  signature: SignatureCheck;
}

export interface RequestLog {
  add(r: InboxRequest): void;
  /** Newest first. */
  list(): InboxRequest[];
  clear(): number;
}

export function createRequestLog(capacity: number): RequestLog {
  let items: InboxRequest[] = [];
  return {
    add(r) {
      items.unshift(r);
      if (items.length > capacity) items.length = capacity;
    },
    list: () => [...items],
    clear() {
      const n = items.length;
      items = [];
      return n;
    },
  };
}

export interface ReceiverOptions {
  tls: { key: string; cert: string };
  log: RequestLog;
  secrets: () => KnownSecret[];
  /** Bodies above this are answered 413 and kept without their bytes. */
  bodyLimitBytes: number;
}

export function createReceiver(opts: ReceiverOptions): Server {
  return createServer({ key: opts.tls.key, cert: opts.tls.cert }, (req, res) => {
    const announced = Number(req.headers['content-length'] ?? 0);
    if (announced > opts.bodyLimitBytes) {
      record(req, opts, null);
      answer(res, 413, { error: tooLarge(opts.bodyLimitBytes), code: 'payload_too_large' }, true);
      req.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= opts.bodyLimitBytes) chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (size > opts.bodyLimitBytes) {
        record(req, opts, null);
        return answer(res, 413, { error: tooLarge(opts.bodyLimitBytes), code: 'payload_too_large' }, true);
      }
      record(req, opts, Buffer.concat(chunks));
      if (req.method === 'POST') return answer(res, 200, { received: true });
      res.setHeader('allow', 'POST');
      answer(res, 405, {
        error: 'this local inbox takes POST requests only; what it received is listed on the Inbox page',
        code: 'method_not_allowed',
      });
    });
  });
}

const tooLarge = (limit: number) => `request body is larger than the inbox's limit of ${limit} bytes`;

function record(req: IncomingMessage, opts: ReceiverOptions, body: Buffer | null): void {
  const headers = headersOf(req);
  const signature: SignatureCheck =
    body === null
      ? {
          verified: false,
          signatures: countV1Signatures(headers['webhook-signature']),
          matched: null,
          detail: `not checked: the body is over the inbox's limit of ${opts.bodyLimitBytes} bytes and was not kept`,
        }
      : checkSignature(body, headers, opts.secrets());
  opts.log.add({
    id: randomUUID(),
    received_at: Date.now(),
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers,
    body: body?.toString('utf8') ?? '',
    signature,
  });
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function answer(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body === undefined || res.req.method === 'HEAD' ? undefined : JSON.stringify(body));
}
