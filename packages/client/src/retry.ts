// The client's one retry policy, wrapped around fetch. A call is retried only where repeating it cannot
// do anything twice:
// - 429 and 503 mean the service did nothing: retried for GET, HEAD, PUT and DELETE and for any request
//   with an Idempotency-Key, waiting the Retry-After it sent (a 429 without one waits a backoff; a 503
//   without one is a lasting refusal, such as billing switched off, and goes to the caller at once);
// - a lost connection or reply may hide a request that was done: retried only for GET and HEAD and for
//   requests with an Idempotency-Key, which the service answers with the first result.
// Waits are bounded: a Retry-After longer than `maxDelayMs` is not waited for; the error goes to the caller.
import { EvdsError, retryAfterSeconds } from './errors.ts';
import { backoffMs, pause } from './wait.ts';

export interface RetryPolicy {
  /** Attempts after the first (default 3; 0 turns retrying off). */
  retries: number;
  /** The longest single wait in ms (default 30,000), for Retry-After and backoff alike. */
  maxDelayMs: number;
  /** First backoff when the service sent no Retry-After, doubled each time (default 250 ms). */
  baseDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, maxDelayMs: 30_000, baseDelayMs: 250 };

const REFUSED = new Set([429, 503]);
const UNCHANGED_ON_REFUSAL = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const SAFE_TO_REPEAT = new Set(['GET', 'HEAD']);

/** Waits, or throws the abort reason when `signal` aborts first. */
async function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  await pause(ms, signal);
  if (signal?.aborted) throw signal.reason as Error;
}

const backoff = (policy: RetryPolicy, attempt: number) =>
  backoffMs(policy.baseDelayMs, policy.maxDelayMs, attempt);

/** fetch's "fetch failed" says nothing; its cause says what happened to the connection. */
const networkError = (err: unknown) => {
  const { message, cause } = err as Error & { cause?: { message?: string; code?: string } };
  const detail = cause?.code ?? cause?.message;
  return new EvdsError(0, 'network_error', detail ? `${message} (${detail})` : message);
};

/** fetch with the retry policy; answers the last response, or throws EvdsError('network_error'). */
export async function fetchWithRetry(
  doFetch: typeof fetch,
  url: string,
  init: RequestInit & { method: string; headers: Record<string, string> },
  policy: RetryPolicy,
): Promise<Response> {
  const method = init.method.toUpperCase();
  const keyed = 'idempotency-key' in init.headers || 'Idempotency-Key' in init.headers;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await doFetch(url, init);
    } catch (err) {
      if (init.signal?.aborted) throw err;
      if (attempt >= policy.retries || !(keyed || SAFE_TO_REPEAT.has(method))) throw networkError(err);
      await sleep(backoff(policy, attempt), init.signal);
      continue;
    }
    if (!REFUSED.has(response.status) || attempt >= policy.retries) return response;
    if (!(keyed || UNCHANGED_ON_REFUSAL.has(method))) return response;
    const wait = retryAfterSeconds(response.headers.get('retry-after'));
    if (wait === null && response.status === 503) return response;
    const delay = wait === null ? backoff(policy, attempt) : wait * 1000;
    if (delay > policy.maxDelayMs) return response;
    await response.body?.cancel();
    await sleep(delay, init.signal);
  }
}
