// /api/v1/* from the page to the API, with the session from the cookie. The body is read first (JSON
// only, within the API's own limit, so oversize and malformed bodies get the API's 413 and 400 without
// a round trip), then sent on byte for byte; the answer's status, body and Retry-After come back.
import { jsonBody } from '@evds/http';
import { Router, type Request, type Response } from 'express';
import { jsonOf, type ApiAnswer, type ApiClient } from './api-client.ts';
import type { SessionCookie } from './cookie.ts';
import { DashboardError } from './errors.ts';
import type { InboxClient } from './inbox.ts';

export interface ForwardDeps {
  api: ApiClient;
  cookie: SessionCookie;
  bodyLimitBytes: number;
  inbox?: InboxClient;
}

/** Routes that deal in session tokens: the page uses /app/login, /app/logout and /app/logout-all. */
const NOT_FORWARDED = new Set([
  '/api/v1/auth/login',
  '/api/v1/auth/logout',
  '/api/v1/auth/logout-all',
  '/api/v1/auth/signup',
]);

/** Answer headers worth passing on; the rest (lengths, encodings, CORS) belong to the API's hop. */
const PASSED_HEADERS = ['content-type', 'retry-after', 'idempotent-replayed'];

/**
 * The path as the API will see it: dot segments resolved as a URL parser resolves them, so "..", "%2e"
 * and empty segments cannot step outside /api/v1/ or around the list above (the API's routing ignores
 * case and a trailing slash, so the comparison does too).
 */
function targetPath(req: Request): string | undefined {
  const url = new URL(req.originalUrl, 'http://dashboard.invalid');
  if (!url.pathname.startsWith('/api/v1/') || url.pathname.includes('//')) return undefined;
  if (NOT_FORWARDED.has(url.pathname.toLowerCase().replace(/\/+$/, ''))) return undefined;
  return url.pathname + url.search;
}

export function forwardRoutes(deps: ForwardDeps): Router {
  const router = Router();
  router.all('/api/v1/*rest', ...jsonBody(deps.bodyLimitBytes), async (req, res) => {
    const path = targetPath(req);
    if (!path)
      throw new DashboardError(
        404,
        'not_found',
        'not available through the dashboard: sign in and out with /app/login, /app/logout and /app/logout-all',
      );
    const token = deps.cookie.read(req);
    const answer = await deps.api.call(req, {
      method: req.method,
      path,
      token,
      body: req.rawBody,
      contentType: req.rawBody.length > 0 ? 'application/json' : undefined,
      idempotencyKey: req.get('idempotency-key'),
    });
    if (answer.status === 401) deps.cookie.clear(res);
    if (deps.inbox && answer.status < 300 && req.method === 'POST') registerSecret(deps.inbox, path, answer);
    send(res, answer);
  });
  return router;
}

/** Passes an API answer on as it came. */
export function send(res: Response, answer: ApiAnswer): void {
  res.status(answer.status);
  for (const name of PASSED_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) res.setHeader(name, value);
  }
  res.end(answer.body);
}

const ROTATE = /^\/api\/v1\/targets\/([^/?]+)\/signing-secret\/rotate(?:\?|$)/;

/** The new webhook signing secret in a creation or rotation answer, labelled with its target's id. */
function registerSecret(inbox: InboxClient, path: string, answer: ApiAnswer): void {
  const pathname = path.split('?')[0]!.replace(/\/+$/, '');
  const body = jsonOf(answer) as
    { id?: unknown; secret?: unknown; target?: { id?: unknown; secret?: unknown } } | undefined;
  let found: [unknown, unknown] | undefined;
  if (pathname === '/api/v1/targets') found = [body?.target?.id, body?.target?.secret];
  else if (pathname === '/api/v1/endpoints') found = [body?.id, body?.secret];
  else {
    const rotated = ROTATE.exec(pathname);
    if (rotated) found = [decodeURIComponent(rotated[1]!), body?.secret];
  }
  const [label, secret] = found ?? [];
  if (typeof label === 'string' && typeof secret === 'string' && secret.startsWith('whsec_'))
    inbox.registerSecret(label, secret);
}
