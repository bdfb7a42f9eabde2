import { EventEmitter } from 'node:events';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isNetguardRefusal } from '@evds/netguard';
import { request, type Dispatcher } from 'undici';

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
  /** The guarded dispatcher (createGuardedDispatcher), which also bounds connection set-up. */
  dispatcher: Dispatcher;
  /** The whole attempt: connect, send, answer. */
  timeoutMs: number;
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

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * One POST, no redirects, no retries (the worker owns retries), keep-alive through the guarded
 * dispatcher. undici directly: it costs half the CPU per delivery of node:https, and a general-purpose
 * client's option merging and body cloning cost more than the request itself (bench/run.ts).
 */
export async function postJson(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const keep = Math.min(opts.keepBytes ?? RESPONSE_BODY_KEEP, RESPONSE_BODY_MAX);
  // undici takes an EventEmitter as the abort signal (its `reason` is the error), at less CPU than an
  // AbortController per attempt.
  const abort = new EventEmitter() as EventEmitter & { reason?: Error };
  const timer = setTimeout(() => {
    abort.reason = timedOut('request', opts.timeoutMs);
    abort.emit('abort');
  }, opts.timeoutMs);
  let statusCode: number | null = null;
  let retryAfter: string | null = null;
  let text = '';
  let error: unknown;
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher: opts.dispatcher,
      headers: { 'accept-encoding': 'gzip, deflate, br', ...headers },
      body,
      signal: abort,
    });
    statusCode = res.statusCode;
    const header = headerText(res.headers['retry-after']);
    if ((statusCode === 429 || statusCode === 503) && header !== undefined) retryAfter = header.slice(0, 64);
    const encoding = headerText(res.headers['content-encoding'])?.trim().toLowerCase() ?? '';
    // After the answer's status, a failure (time-out, reset, bad encoding) ends it with what came.
    text = await readKept(res.body, decoders[encoding]?.(), keep);
  } catch (err) {
    error = err;
  } finally {
    clearTimeout(timer);
  }
  return {
    statusCode,
    durationMs: Math.round(performance.now() - started),
    responseBody: statusCode === null ? null : text,
    error: error === undefined ? null : describe(error),
    refused: error !== undefined && isNetguardRefusal(error),
    retryAfter,
  };
}

/**
 * The answer's first `keep` bytes as text, decoded when compressed. The rest is read and thrown away
 * up to RESPONSE_BODY_MAX, then the answer is cut; a body cut off or undecodable keeps what came.
 */
function readKept(raw: Readable, decoder: Transform | undefined, keep: number): Promise<string> {
  const kept: Buffer[] = [];
  let size = 0;
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(kept).subarray(0, keep).toString('utf8'));
    };
    const stream: Readable = decoder ? raw.pipe(decoder) : raw;
    if (decoder) raw.on('error', finish);
    stream.on('data', (chunk: Buffer) => {
      if (size < keep) kept.push(chunk);
      size += chunk.length;
      if (size > RESPONSE_BODY_MAX) {
        raw.destroy();
        finish();
      }
    });
    stream.on('end', finish);
    stream.on('error', finish);
    stream.on('close', finish);
  });
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  const message = cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message;
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}
