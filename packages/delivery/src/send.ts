import type { ClientRequest, IncomingMessage } from 'node:http';
import { request, type Agent } from 'node:https';
import type { Socket } from 'node:net';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isNetguardRefusal } from '@evds/netguard';

/** Kept per attempt; a longer answer is cut here and the rest is read and thrown away (up to a cap). */
export const RESPONSE_BODY_KEEP = 4096;
const RESPONSE_BODY_MAX = 1024 * 1024;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  /** Why no answer came (refused connection, DNS, TLS, time-out...), or null. */
  error: string | null;
  /** The network policy refused the address: retrying cannot help. */
  refused: boolean;
  /** The `Retry-After` header of a 429 or 503 answer, as sent (cut to 64 characters), else null. */
  retryAfter?: string | null;
}

export interface SendOptions {
  agent: Agent;
  /** The whole attempt: connect, send, answer. */
  timeoutMs: number;
  /** TCP and TLS connection set-up, much shorter: a host that never accepts fails fast. */
  connectTimeoutMs?: number;
  /** How much of the answer to keep in `responseBody` (default RESPONSE_BODY_KEEP); a2a reads the whole answer. */
  keepBytes?: number;
}

/** How the answer's body is decoded: compressed answers are kept as text, not as compressed bytes. */
const decoders: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** A time-out, worded and coded as before (ETIMEDOUT, "Timeout awaiting '<phase>' for <ms>ms"). */
const timedOut = (phase: string, ms: number) =>
  Object.assign(new Error(`Timeout awaiting '${phase}' for ${ms}ms`), { code: 'ETIMEDOUT' });

/**
 * One POST, no redirects, no retries (the worker owns retries), keep-alive through the guarded agent.
 * node:https directly: a general-purpose client's option merging and body cloning cost more per
 * delivery than the request itself (bench/run.ts, worker CPU per delivery).
 */
export function postJson(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const keep = Math.min(opts.keepBytes ?? RESPONSE_BODY_KEEP, RESPONSE_BODY_MAX);
  return new Promise((resolve) => {
    let statusCode: number | null = null;
    let retryAfter: string | null = null;
    const kept: Buffer[] = [];
    let size = 0;
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (error: unknown) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      const text = Buffer.concat(kept).subarray(0, keep).toString('utf8');
      resolve({
        statusCode,
        durationMs: Math.round(performance.now() - started),
        responseBody: statusCode === null ? null : text,
        error: error === undefined ? null : describe(error),
        refused: error !== undefined && isNetguardRefusal(error),
        retryAfter,
      });
    };
    // After the answer's status, a failure (time-out, reset, bad encoding) ends it with what came.
    const fail = (err: unknown) => finish(statusCode === null ? err : undefined);
    let req: ClientRequest;
    try {
      req = request(url, {
        method: 'POST',
        agent: opts.agent,
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          ...headers,
          'content-length': String(body.length),
        },
      });
    } catch (err) {
      finish(err);
      return;
    }
    const after = (ms: number, phase: string) => {
      const t = setTimeout(() => req.destroy(timedOut(phase, ms)), ms);
      timers.push(t);
      return t;
    };
    after(opts.timeoutMs, 'request');
    const connectMs = opts.connectTimeoutMs;
    if (connectMs)
      req.once('socket', (socket: Socket) => {
        // A reused keep-alive socket is connected already; a new one gets both set-up bounds.
        if (!socket.connecting) return;
        const connect = after(connectMs, 'connect');
        socket.once('connect', () => {
          clearTimeout(connect);
          const secure = after(connectMs, 'secureConnect');
          socket.once('secureConnect', () => clearTimeout(secure));
        });
      });
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      statusCode = res.statusCode ?? null;
      const header = res.headers['retry-after'];
      if ((statusCode === 429 || statusCode === 503) && typeof header === 'string')
        retryAfter = header.slice(0, 64);
      const encoding = res.headers['content-encoding']?.trim().toLowerCase() ?? '';
      const decoder = decoders[encoding]?.();
      const stream: Readable = decoder ? res.pipe(decoder) : res;
      if (decoder) res.on('error', fail);
      stream.on('data', (chunk: Buffer) => {
        if (size < keep) kept.push(chunk);
        size += chunk.length;
        if (size > RESPONSE_BODY_MAX) {
          req.destroy();
          finish(undefined);
        }
      });
      stream.on('end', () => finish(undefined));
      stream.on('error', fail);
      // Cut off mid-body: what came is kept, as for any failure after the status.
      res.on('close', () => {
        if (!res.complete) finish(undefined);
      });
    });
    req.end(body);
  });
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  const message = cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}
