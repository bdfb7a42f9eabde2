import type { Agent } from 'node:https';
import { isNetguardRefusal } from '@evds/netguard';
import got from 'got';

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

/** One POST, no redirects, no retries (the worker owns retries), keep-alive through the guarded agent. */
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
    const finish = (error: unknown) => {
      if (done) return;
      done = true;
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
    const stream = got.stream.post(url, {
      // got snapshots the body with structuredClone, which copies a view's whole ArrayBuffer: a payload
      // read from Postgres is a view into an 8 KiB pool, so it is handed over as an exact-size copy.
      body: body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body),
      headers,
      agent: { https: opts.agent },
      timeout: {
        request: opts.timeoutMs,
        ...(opts.connectTimeoutMs
          ? { connect: opts.connectTimeoutMs, secureConnect: opts.connectTimeoutMs }
          : {}),
      },
      followRedirect: false,
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: true,
    });
    stream.on(
      'response',
      (res: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
        statusCode = res.statusCode;
        const header = res.headers['retry-after'];
        if ((statusCode === 429 || statusCode === 503) && typeof header === 'string')
          retryAfter = header.slice(0, 64);
      },
    );
    stream.on('data', (chunk: Buffer) => {
      if (size < keep) kept.push(chunk);
      size += chunk.length;
      if (size > RESPONSE_BODY_MAX) {
        stream.destroy();
        finish(undefined);
      }
    });
    stream.on('end', () => finish(undefined));
    stream.on('error', (err: unknown) => finish(statusCode === null ? err : undefined));
  });
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  const message = cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}
