import { AppError } from '@evds/domain';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { jsonBody } from './body.ts';
import type { z } from 'zod';
import { authOf, requireAuth, type Auth, type AuthKind, type CredentialStore } from './auth.ts';
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
  handler: (input: HandlerInput) => Promise<Reply>;
}

export interface HandlerInput {
  params: never;
  query: never;
  body: never;
  auth: Auth;
  req: Request;
  res: Response;
}

export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent instead of JSON.stringify(body) when set: a response that embeds archived JSON byte for byte. */
  rawJson?: string;
}

/** Types a route's handler from its schemas while keeping the list homogeneous. */
export function defineRoute<
  P extends z.ZodType = z.ZodNever,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
>(
  def: Omit<RouteDef, 'handler' | 'params' | 'query' | 'body'> & {
    params?: P;
    query?: Q;
    body?: B;
    handler: (input: {
      params: z.output<P>;
      query: z.output<Q>;
      body: z.output<B>;
      auth: Auth;
      req: Request;
      res: Response;
    }) => Promise<Reply>;
  },
): RouteDef {
  return def;
}

const PUBLIC: Auth = { method: 'session', orgId: '', userId: '', sessionId: '' };

/**
 * Mounts route definitions on a router. Per route: `before`, the auth guard, the JSON body (415/413/400),
 * then params (a bad shape is 404), query and body schemas (400 naming the field), then the handler.
 */
export function mountRoutes(
  routes: RouteDef[],
  opts: {
    credentials: CredentialStore;
    bodyLimitBytes: number;
    /** Runs after every successful POST, PATCH or DELETE, before the answer is sent. */
    afterChange?: () => Promise<void>;
  },
): Router {
  const router = Router();
  const body = jsonBody(opts.bodyLimitBytes);
  for (const r of routes) {
    const pre = [
      ...(r.before ? [r.before] : []),
      ...(r.auth === 'P' ? [] : [requireAuth(r.auth, opts.credentials)]),
    ];
    router[r.method](r.path, ...pre, ...body, async (req: Request, res: Response) => {
      const params = r.params ? parseParams(r.params, req.params) : undefined;
      const query = r.query ? parse(r.query, req.query, 'query') : undefined;
      const body = r.body ? parse(r.body, req.body ?? {}, 'body') : undefined;
      const auth = r.auth === 'P' ? PUBLIC : authOf(req);
      const reply = await r.handler({ params, query, body, auth, req, res } as never);
      if (r.method !== 'get' && opts.afterChange) await opts.afterChange();
      res.status(reply.status ?? 200);
      if (reply.headers) res.set(reply.headers);
      if (reply.rawJson !== undefined) res.type('application/json').send(reply.rawJson);
      else res.json(reply.body);
    });
  }
  return router;
}

function parseParams(schema: z.ZodType, params: unknown): unknown {
  const r = schema.safeParse(params);
  if (!r.success) throw new AppError('not_found', 'resource not found');
  return r.data;
}
