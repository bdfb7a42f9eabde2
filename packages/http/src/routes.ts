import { AppError } from '@evds/domain';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { authOf, requireAuth, type Auth, type AuthKind, type CredentialStore } from './auth.ts';
import type { AuthFailureLimit } from './auth-failures.ts';
import { bodyHeaders, jsonBody, readRawBody, skipUnreadBody } from './body.ts';
import { UNAVAILABLE_RETRY_AFTER } from './errors.ts';
import { parse } from './validate.ts';

/**
 * One route of the service, declared once: express mounts it, the OpenAPI document and the
 * security test matrices are generated from the same list, so none of them can forget a route.
 */
export interface RouteDef {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** express-style path, e.g. /api/v1/keys/:id */
  path: string;
  /** P = public; K, S, KS as in the spec's Auth column. */
  auth: AuthKind | 'P';
  summary: string;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Status -> description and (optional) body schema; the first 2xx is the success answer. */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /** Runs before authentication and body parsing (the login limit counts every attempt). */
  before?: RequestHandler;
  /**
   * Set on the routes whose success changes what ingest replicas cache: API keys, targets (kind,
   * enabled, event types, size limit, inbound signatures) and their organizations' billing states.
   * A function decides from the body (a rename changes nothing ingest holds). mountRoutes then tells
   * every replica before answering. Creations need not: no replica can hold a fresh random id or key.
   */
  invalidatesIngest?: true | ((body: never) => boolean);
  /**
   * The handler reads the body itself, through `readBody`, once its own checks pass (ingest refuses
   * unknown targets, blocked billing, oversize announcements and the rate limit before reading).
   * Only the content type and the service's size limit are checked before it runs.
   */
  deferBody?: true;
  /**
   * For the document only, where the handler reads and checks these itself: the request headers the
   * route reads, and the (required) body of a `deferBody` route, as `body` would say were it parsed up front.
   */
  documented?: { headers?: z.ZodObject; body?: z.ZodType };
  handler: (input: HandlerInput) => Promise<Reply>;
}

export interface HandlerInput {
  params: never;
  query: never;
  body: never;
  auth: Auth;
  req: Request;
  res: Response;
  readBody: ReadBody;
}

/**
 * The raw body, read now if it was not yet, at most `limit` bytes (and the service's own limit);
 * 'too_large' beyond. A body announced over the limit is refused without reading a byte.
 */
export type ReadBody = (limit: number) => Promise<Buffer | 'too_large'>;

export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent instead of JSON.stringify(body) when set: a response that embeds archived JSON byte for byte. */
  rawJson?: string;
  /** Whether ingest must be told, when only the handler knows (it overrides the route's flag). */
  invalidatesIngest?: boolean;
}

/** Types a route's handler from its schemas while keeping the list homogeneous. */
export function defineRoute<
  P extends z.ZodType = z.ZodNever,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
>(
  def: Omit<RouteDef, 'handler' | 'params' | 'query' | 'body' | 'invalidatesIngest'> & {
    params?: P;
    query?: Q;
    body?: B;
    invalidatesIngest?: true | ((body: z.output<B>) => boolean);
    handler: (input: {
      params: z.output<P>;
      query: z.output<Q>;
      body: z.output<B>;
      auth: Auth;
      req: Request;
      res: Response;
      readBody: ReadBody;
    }) => Promise<Reply>;
  },
): RouteDef {
  return def;
}

const PUBLIC: Auth = { method: 'session', orgId: '', userId: '', sessionId: '' };

export interface MountOptions {
  credentials: CredentialStore;
  bodyLimitBytes: number;
  /** Failed authentications per client address (api and ingest). */
  authFailures?: AuthFailureLimit;
  /** Runs after authentication on every guarded route: the api's per-credential limit. */
  perCredential?: RequestHandler;
  /** Tells every ingest replica to drop its caches; runs after routes marked invalidatesIngest. */
  invalidateIngest?: () => Promise<void>;
}

/**
 * Mounts route definitions on a router. Per route: `before`, the auth guard, the per-credential limit,
 * the JSON body (415/413/400; only its headers for deferBody), then params (a bad shape is 404), query
 * and body schemas (400 naming the field), then the handler, then telling ingest of the change.
 */
export function mountRoutes(routes: RouteDef[], opts: MountOptions): Router {
  const router = Router();
  const body = jsonBody(opts.bodyLimitBytes);
  const deferred = bodyHeaders(opts.bodyLimitBytes);
  for (const r of routes) {
    const pre = [
      ...(r.before ? [r.before] : []),
      ...(r.auth === 'P' ? [] : [requireAuth(r.auth, opts.credentials, opts.authFailures)]),
      ...(r.auth !== 'P' && opts.perCredential ? [opts.perCredential] : []),
    ];
    router[r.method](
      r.path,
      ...pre,
      ...(r.deferBody ? [deferred] : body),
      async (req: Request, res: Response) => {
        const params = r.params ? parseParams(r.params, req.params) : undefined;
        const query = r.query ? parse(r.query, req.query, 'query') : undefined;
        const body = r.body ? parse(r.body, req.body ?? {}, 'body') : undefined;
        const auth = r.auth === 'P' ? PUBLIC : authOf(req);
        const readBody: ReadBody = (limit) => readRawBody(req, res, Math.min(limit, opts.bodyLimitBytes));
        let reply: Reply;
        try {
          reply = await r.handler({ params, query, body, auth, req, res, readBody } as never);
        } finally {
          if (r.deferBody) skipUnreadBody(req, res);
        }
        if (opts.invalidateIngest && (reply.invalidatesIngest ?? changesIngest(r, body)))
          await tellIngest(opts.invalidateIngest);
        res.status(reply.status ?? 200);
        if (reply.headers) res.set(reply.headers);
        if (reply.rawJson !== undefined) res.type('application/json').send(reply.rawJson);
        else res.json(reply.body);
      },
    );
  }
  return router;
}

const changesIngest = (r: RouteDef, body: unknown): boolean =>
  typeof r.invalidatesIngest === 'function' ? r.invalidatesIngest(body as never) : !!r.invalidatesIngest;

/**
 * Ingest is told after the commit: told first, a replica could cache the old row again in between.
 * When telling fails (twice) the change stays saved, but the answer cannot be a success: a revoke must take
 * effect on the very next ingest request (decisions §4), and a replica that still reaches Redis may
 * use its cached copy for up to a minute. So the caller gets 503 saying the change was saved; a retry
 * is harmless (a PATCH applies again and tells ingest; a DELETE answers 404, already gone), though a
 * secret shown once in the lost answer (turning inbound signatures on) needs turning off and on again.
 * Replicas that cannot reach Redis either read Postgres directly: for them the change is already live.
 */
async function tellIngest(invalidate: () => Promise<void>): Promise<void> {
  try {
    // Twice: a lone dropped command (a failover, a reconnect) should not cost the caller a 503.
    await invalidate().catch(invalidate);
  } catch {
    throw new AppError(
      'unavailable',
      'the change was saved, but ingestion could not be told at once and may act on the previous ' +
        'value for up to a minute',
      { 'Retry-After': UNAVAILABLE_RETRY_AFTER },
    );
  }
}

function parseParams(schema: z.ZodType, params: unknown): unknown {
  const r = schema.safeParse(params);
  if (!r.success) throw new AppError('not_found', 'resource not found');
  return r.data;
}
