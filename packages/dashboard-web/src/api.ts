// Every call the page makes goes to its own origin: the dashboard's back end adds the session from its
// HttpOnly cookie and forwards /api/v1/* to the API. The page never sees the token.

/** An error answer from the API or the back end, with the contract's `{error, code}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, from Retry-After on 429 and 503 answers. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

type Listener = () => void;
const signedOutListeners = new Set<Listener>();

/** Called whenever an answer says the session is gone (401): the app returns to sign-in. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/** A same-origin JSON request. State-changing calls carry X-Requested-With, which the back end requires. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return (await apiWithText<T>(path, opts)).data;
}

/**
 * The same request, also giving the answer's text exactly as it came: an event's payload is stored and
 * answered byte for byte, and JSON.parse alone would lose its spacing and key order.
 */
export async function apiWithText<T>(
  path: string,
  opts: RequestOptions = {},
): Promise<{ data: T; text: string }> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Requested-With'] = 'evds-dashboard';
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    credentials: 'same-origin',
    signal: opts.signal,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (res.ok) return { data: body as T, text };
  const err = (body ?? {}) as { error?: unknown; code?: unknown };
  const retry = Number(res.headers.get('Retry-After'));
  const apiError = new ApiError(
    res.status,
    typeof err.code === 'string' ? err.code : 'http_' + res.status,
    typeof err.error === 'string' ? err.error : `the server answered ${res.status}`,
    Number.isFinite(retry) && retry > 0 ? retry : undefined,
  );
  if (res.status === 401 && !path.startsWith('/app/login')) for (const l of signedOutListeners) l();
  throw apiError;
}
