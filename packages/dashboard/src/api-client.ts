// Calls from the dashboard's back end to the API, inside the deployment. The browser's address goes
// along as X-Forwarded-For: the API's per-address limits (login, failed authentications) see the
// browser, not the dashboard, where the API's TRUST_PROXY trusts the dashboard's address.
import type { Request } from 'express';
import { apiUnavailable } from './errors.ts';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** The answer's bytes, as the API sent them (decompressed). */
  body: Buffer;
}

export interface ApiCall {
  method: string;
  /** Path and query, e.g. /api/v1/events?status=FAILED. */
  path: string;
  token?: string;
  body?: Buffer;
  contentType?: string;
  idempotencyKey?: string;
}

export interface ApiClient {
  /** Any status is an answer; a network failure or a time-out is a 503 DashboardError. */
  call(req: Request, call: ApiCall): Promise<ApiAnswer>;
  /** The API's GET /health answered 200 (readiness). */
  healthy(): Promise<void>;
}

export function createApiClient(opts: { baseUrl: string; timeoutMs: number }): ApiClient {
  return {
    async call(req, call) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (req.ip) headers['x-forwarded-for'] = req.ip;
      if (req.id) headers['x-request-id'] = req.id;
      if (call.token) headers['x-session-token'] = call.token;
      if (call.contentType) headers['content-type'] = call.contentType;
      if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
      const hasBody = call.body !== undefined && call.body.length > 0;
      let res: Response;
      try {
        res = await fetch(opts.baseUrl + call.path, {
          method: call.method,
          headers,
          body: hasBody ? new Uint8Array(call.body!) : undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
      } catch {
        throw apiUnavailable();
      }
    },
    async healthy() {
      const res = await fetch(`${opts.baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the API's health answered ${res.status}`);
    },
  };
}

/** The JSON of an answer, or undefined when it is not JSON. */
export function jsonOf(answer: ApiAnswer): unknown {
  try {
    return answer.body.length === 0 ? undefined : (JSON.parse(answer.body.toString('utf8')) as unknown);
  } catch {
    return undefined;
  }
}
