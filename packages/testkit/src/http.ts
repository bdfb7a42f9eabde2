/** A JSON answer from a service under test, read over real HTTP. */
export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  /** An object is sent as JSON; a string or Buffer is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  key?: string;
  session?: string;
}

/** Small fetch wrapper: credentials by name, JSON in and out, never throws on a status. */
export function client(baseUrl: string) {
  return async function request<T = Record<string, unknown>>(
    path: string,
    opts: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    if (opts.session) headers['x-session-token'] = opts.session;
    let body: string | Buffer | undefined;
    if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) body = opts.body;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const res = await fetch(baseUrl + path, {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
}

export type Client = ReturnType<typeof client>;
