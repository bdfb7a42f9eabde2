// What a browser on the dashboard's page does, over real HTTP: JSON in and out, the session cookie
// kept between calls, and X-Requested-With on state-changing calls (as the page's api.ts sends it).
import { request as httpRequest } from 'node:http';
import type { TestWorkspace } from '@evds/testkit';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** Each Set-Cookie header of the answer. */
  cookies: string[];
}

export interface CallOptions {
  method?: string;
  /** An object is sent as JSON; a string or Buffer as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The session cookie's value to send. */
  session?: string;
  /** Leave out X-Requested-With (a page always sends it on state-changing calls). */
  bare?: boolean;
}

export const PAGE_MARKER = { 'x-requested-with': 'evds-dashboard' };

export function browser(baseUrl: string) {
  return async function call<T = Record<string, unknown>>(
    path: string,
    opts: CallOptions = {},
  ): Promise<Answer<T>> {
    const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method !== 'GET' && method !== 'HEAD' && !opts.bare) Object.assign(headers, PAGE_MARKER);
    if (opts.session !== undefined) headers.cookie = `evds_session=${opts.session}`;
    let body: string | Buffer | undefined;
    if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) body = opts.body;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, opts.headers);
    const res = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      status: res.status,
      headers: res.headers,
      body: parsed as T,
      text,
      cookies: res.headers.getSetCookie(),
    };
  };
}

export type Browser = ReturnType<typeof browser>;

/** The value of the evds_session cookie an answer sets, if it sets one. */
export function sessionOf(answer: Answer<unknown>): string | undefined {
  const set = answer.cookies.find((c) => c.startsWith('evds_session='));
  return set?.split(';')[0]?.slice('evds_session='.length);
}

/** Signs in through the dashboard and returns the session cookie's value. */
export async function signIn(call: Browser, ws: TestWorkspace): Promise<string> {
  const res = await call('/app/login', { body: { email: ws.email, password: ws.password } });
  const session = sessionOf(res);
  if (res.status !== 200 || !session) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return session;
}

/**
 * A request with the path sent exactly as written (fetch would resolve "..", "%2e" and the like before
 * sending, which hides what a crafted request does).
 */
export function rawRequest(
  baseUrl: string,
  opts: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, method: opts.method, path: opts.path, headers: opts.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
