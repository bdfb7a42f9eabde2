/**
 * Every answer outside 2xx, as the service sends it: `{error, code}` with the HTTP status. `code` is the
 * stable reference to branch on (`validation_failed`, `not_found`, `rate_limited`...). A reply that
 * is not the service's own JSON (a proxy's HTML page, a cut connection) gets `code: 'unexpected_response'`
 * or `'network_error'`, status 0 for the latter.
 */
export class EvdsError extends Error {
  readonly status: number;
  readonly code: string;
  /** The service's human-readable message. */
  readonly error: string;
  /** Seconds from a Retry-After header (429, 503), when the service sent one. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, code: string, error: string, retryAfterSeconds: number | null = null) {
    super(`${status ? `${status} ` : ''}${code}: ${error}`);
    this.name = 'EvdsError';
    this.status = status;
    this.code = code;
    this.error = error;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Seconds to wait from a Retry-After header: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  // Date.parse reads "-1" or "1.5" as years; an HTTP date always names its day and month.
  if (!/[a-z]/i.test(header)) return null;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The EvdsError for a non-2xx response whose body was already read (parsed JSON, text, or undefined). */
export function errorFromResponse(response: Response, body: unknown): EvdsError {
  const wait = retryAfterSeconds(response.headers.get('retry-after'));
  if (body && typeof body === 'object' && 'code' in body && 'error' in body) {
    const { code, error } = body;
    if (typeof code === 'string' && typeof error === 'string')
      return new EvdsError(response.status, code, error, wait);
  }
  const text = typeof body === 'string' ? body.slice(0, 200) : response.statusText;
  return new EvdsError(response.status, 'unexpected_response', text || `HTTP ${response.status}`, wait);
}

/** Resolves to the 2xx body of an openapi-fetch call, or throws the answer as an EvdsError. */
export async function ok<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const r = await call;
  if (!r.response.ok || r.error !== undefined) throw errorFromResponse(r.response, r.error);
  return r.data!;
}
