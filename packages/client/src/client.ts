// createEvdsClient: one object for the management API and ingestion. Typed calls go through
// openapi-fetch over the generated `paths`; `send` takes a lean path of its own (one fetch, no Request
// objects) because producers call it per item. Every call shares the retry policy of retry.ts and
// throws EvdsError for anything but 2xx.
import { randomUUID } from 'node:crypto';
import createFetchClient from 'openapi-fetch';
import { consumeMailbox, type ConsumeHandler, type ConsumeOptions } from './consume.ts';
import { errorFromResponse, EvdsError } from './errors.ts';
import { defaultRetryPolicy, fetchWithRetry, type RetryPolicy } from './retry.ts';
import { routeMethods } from './routes.ts';
import type { Accepted, paths } from './types.ts';

export interface ClientOptions {
  /** The API's origin, e.g. https://evds.example.com (or the local gateway, http://127.0.0.1:8080). */
  baseUrl: string;
  /** Where /t/ and /e/ are served when not on baseUrl (the ingest service's own origin). */
  ingestUrl?: string;
  /** An API key (evds_sk_...): every route but the billing ones, which take a session. */
  apiKey?: string;
  /** A session token from POST /api/v1/auth/login, sent as X-Session-Token. */
  sessionToken?: string;
  retry?: Partial<RetryPolicy>;
  /** Replaces globalThis.fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Added to every request. */
  headers?: Record<string, string>;
}

export interface SendOptions {
  /** X-Event-Type; the body's `event_type` is used when absent. */
  type?: string;
  correlationId?: string;
  /** Defaults to a fresh UUID per send, so a retried send never makes two items. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export type EvdsClient = ReturnType<typeof createEvdsClient>;

type ItemHeaders = NonNullable<paths['/t/{target_id}']['post']['parameters']['header']>;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createEvdsClient(options: ClientOptions) {
  const policy = { ...defaultRetryPolicy, ...options.retry };
  const doFetch = options.fetch ?? globalThis.fetch;
  const auth: Record<string, string> = {
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...(options.sessionToken ? { 'x-session-token': options.sessionToken } : {}),
  };
  const common = { 'user-agent': 'evds-client/1', ...options.headers, ...auth };
  // openapi-fetch hands over a Request; its body is read once so every attempt can send it again.
  const retrying = async (request: Request): Promise<Response> => {
    const body = request.body === null ? undefined : await request.text();
    const headers = Object.fromEntries(request.headers.entries());
    return fetchWithRetry(
      doFetch,
      request.url,
      { method: request.method, headers, body, signal: request.signal },
      policy,
    );
  };
  const make = (baseUrl: string) =>
    createFetchClient<paths>({ baseUrl: trimSlash(baseUrl), headers: common, fetch: retrying });
  const api = make(options.baseUrl);
  const ingestBase = trimSlash(options.ingestUrl ?? options.baseUrl);

  /** POST /t/{target}: one item, JSON-encoded here unless already a string of JSON. */
  async function send(targetId: string, payload: unknown, opts: SendOptions = {}): Promise<Accepted> {
    // The item's headers, named as the document names them.
    const item: ItemHeaders = { 'Idempotency-Key': opts.idempotencyKey ?? randomUUID() };
    if (opts.type !== undefined) item['X-Event-Type'] = opts.type;
    if (opts.correlationId !== undefined) item['X-Correlation-ID'] = opts.correlationId;
    const headers = { ...common, 'content-type': 'application/json', ...item } as Record<string, string>;
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const url = `${ingestBase}/t/${encodeURIComponent(targetId)}`;
    const res = await fetchWithRetry(
      doFetch,
      url,
      { method: 'POST', headers, body, signal: opts.signal },
      policy,
    );
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: reported as an unexpected response below
    }
    if (res.status !== 202 && res.status !== 200) throw errorFromResponse(res, parsed);
    if (typeof parsed !== 'object' || parsed === null)
      throw new EvdsError(res.status, 'unexpected_response', text.slice(0, 200));
    return parsed as Accepted;
  }

  const methods = routeMethods(api, make(ingestBase));
  /** The claim, heartbeat and ack loop of consume.ts over this client's own mailbox methods. */
  const consume = (mailboxId: string, handler: ConsumeHandler, consumeOptions?: ConsumeOptions) =>
    consumeMailbox(methods.mailboxes, mailboxId, handler, consumeOptions);

  return { ...methods, send, consumeMailbox: consume, api };
}
