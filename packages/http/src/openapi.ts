import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { defineRoute, type RouteDef } from './routes.ts';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** What the document needs from a route: everything but the code that runs it. */
export type DocumentedRoute = Omit<RouteDef, 'handler' | 'before'>;

/**
 * The body of every error answer (decisions §2), published once as the `Error` component (the id is
 * how zod-to-openapi names a component). Declared error schemas of the same shape are referenced too.
 */
const errorShape = {
  error: z.string().describe('Human-readable message'),
  code: z.string().describe('Stable snake_case reference, e.g. validation_failed'),
};
export const errorBodySchema = z.object(errorShape).meta({ id: 'Error' });

/** A schema's JSON Schema without its descriptions, to recognise a feature's own `{error, code}` schema. */
const shapeOf = (s: z.ZodType): string =>
  JSON.stringify(z.toJSONSchema(s, { unrepresentable: 'any' }), (k, v: unknown) =>
    k === 'description' && typeof v === 'string' ? undefined : v,
  );
const ERROR_SHAPE = shapeOf(z.object(errorShape));

const CONVENTIONS = `Timestamps: Unix seconds (integers) in every record except event records and their delivery
attempts (GET /api/v1/events, GET /api/v1/events/{id}), which use ISO 8601 UTC strings with milliseconds,
e.g. 2026-11-21T07:08:38.207Z.

Errors: every error answer is {"error": "<message>", "code": "<stable_snake_case>"}; a 500 never carries details.

Credentials: an API key (evds_sk_ + 64 lowercase hex) as Authorization: Bearer <key>, or a session token
from POST /api/v1/auth/login in the X-Session-Token header; each operation names which it takes.`;

/** /health is mounted beside the route list (on api and ingest alike), so it is documented here. */
const healthChecks = z.object({ postgres: z.enum(['ok', 'down']), redis: z.enum(['ok', 'down']) });
const healthRoute: DocumentedRoute = {
  method: 'get',
  path: '/health',
  auth: 'P',
  tag: 'operations',
  summary: 'Liveness of the service and of the Postgres and Redis it depends on',
  responses: {
    200: {
      description: 'Postgres and Redis both answer',
      schema: z.object({ status: z.literal('ok'), checks: healthChecks }),
    },
    503: {
      description: 'Postgres or Redis is down (named in `error`); retry after Retry-After seconds',
      schema: z.object({
        status: z.literal('unavailable'),
        error: z.string(),
        code: z.literal('unavailable'),
        checks: healthChecks,
      }),
    },
  },
};

const securitySchemes = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'evds_sk_ + 64 lowercase hex',
    description:
      'An API key, `evds_sk_` followed by 64 lowercase hex (72 characters): `Authorization: Bearer <key>`',
  },
  sessionToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-Token',
    description: 'A session token (64 lowercase hex) from POST /api/v1/auth/login, valid for 7 days',
  },
} as const;

const securityOf: Record<RouteDef['auth'], Record<string, string[]>[]> = {
  P: [],
  K: [{ apiKey: [] }],
  S: [{ sessionToken: [] }],
  // Either credential: two alternative requirements, not one requiring both.
  KS: [{ apiKey: [] }, { sessionToken: [] }],
};

const unauthorized: Record<RouteDef['auth'], string> = {
  P: '',
  K: 'Missing, malformed, unknown or revoked API key, or a session token where an API key is required',
  S: 'Missing, unknown, expired or revoked session token, or an API key where a session is required',
  KS: 'Missing, malformed, unknown, expired or revoked credential',
};

const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' as const } },
};

/** `/keys/:id` -> `/keys/{id}` */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

const pathParamNames = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');

/**
 * The OpenAPI 3.1 document of `routes` plus GET /health. Each operation carries its declared answers and
 * the common error answers that can happen to it, all with the one `Error` body.
 */
export function buildOpenApiDocument(routes: DocumentedRoute[], info: OpenApiInfo): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(securitySchemes))
    registry.registerComponent('securitySchemes', name, scheme);
  const all = routes.some((r) => r.method === 'get' && r.path === healthRoute.path)
    ? routes
    : [...routes, healthRoute];
  for (const r of all) registry.registerPath(toOperation(r));

  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: info.description ? `${info.description}\n\n${CONVENTIONS}` : CONVENTIONS,
    },
    tags: [...new Set(all.map((r) => r.tag))].map((name) => ({ name })),
  });
  return doc;
}

function toOperation(r: DocumentedRoute): RouteConfig {
  const body = r.body ?? r.documented?.body;
  return {
    method: r.method,
    path: openApiPath(r.path),
    operationId: operationIdOf(r),
    summary: r.summary,
    tags: [r.tag],
    security: securityOf[r.auth],
    request: {
      params: paramsOf(r),
      query: r.query ? objectSchema(r, 'query', r.query) : undefined,
      headers: r.documented?.headers,
      body: body && {
        // mountRoutes validates a missing body as {}, so the body is optional when {} passes; a handler
        // that reads its body itself (documented.body) requires one.
        required: r.body ? !r.body.safeParse({}).success : true,
        content: { 'application/json': { schema: body } },
      },
    },
    responses: responsesOf(r),
  };
}

/** `delete /api/v1/keys/:id` -> `deleteKeysId` */
const operationIdOf = (r: DocumentedRoute): string =>
  r.method +
  r.path.replace(/^\/api\/v1/, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => c?.toUpperCase() ?? '');

/** Path parameters: the declared schema, completed with any `:name` it does not describe. */
function paramsOf(r: DocumentedRoute): z.ZodObject | z.ZodPipe | undefined {
  const names = pathParamNames(r.path);
  if (r.params && !(r.params instanceof z.ZodObject)) return objectSchema(r, 'params', r.params);
  const shape = r.params?.shape ?? {};
  const missing = names.filter((n) => !(n in shape));
  if (missing.length === 0) return r.params;
  return z.object({ ...shape, ...Object.fromEntries(missing.map((n) => [n, z.string()])) });
}

function objectSchema(r: DocumentedRoute, where: string, s: z.ZodType): z.ZodObject | z.ZodPipe {
  if (s instanceof z.ZodObject || s instanceof z.ZodPipe) return s;
  throw new Error(`${r.method.toUpperCase()} ${r.path}: the ${where} schema must be a z.object`);
}

function responsesOf(r: DocumentedRoute): Record<string, ResponseConfig> {
  const common: Record<number, string | undefined> = {
    400:
      r.query || r.body
        ? 'Malformed JSON, or a query or body that fails the schema (the message names the field)'
        : undefined,
    401: r.auth === 'P' ? undefined : unauthorized[r.auth],
    404:
      pathParamNames(r.path).length > 0
        ? 'Unknown id, or an id that belongs to another organization'
        : undefined,
    413: r.body ? 'Request body over the size limit' : undefined,
    415: r.body ? 'Request body that is not application/json' : undefined,
    429:
      r.auth === 'P'
        ? undefined
        : 'Too many failed authentications from this address, or too many requests with this credential',
    500: 'Internal error: a generic message, details go to the log only',
    503: 'Database (or Redis) unavailable; retry after Retry-After seconds',
  };
  const out: Record<string, ResponseConfig> = {};
  for (const [status, d] of Object.entries(r.responses))
    out[status] = response(Number(status), d.description, d.schema);
  for (const [status, description] of Object.entries(common))
    if (description && !(status in out)) out[status] = response(Number(status), description);
  return out;
}

function response(status: number, description: string, declared?: z.ZodType): ResponseConfig {
  const schema =
    status >= 400 && (!declared || shapeOf(declared) === ERROR_SHAPE) ? errorBodySchema : declared;
  return {
    description,
    ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
    ...(schema ? { content: { 'application/json': { schema } } } : {}),
  };
}

/**
 * GET /api/v1/openapi.json (public), to mount with the other routes. The document is built on the
 * first request, so it can describe a route list that includes this route.
 */
export function openApiRoute(getDocument: () => OpenApiDocument): RouteDef {
  let doc: OpenApiDocument | undefined;
  return defineRoute({
    method: 'get',
    path: '/api/v1/openapi.json',
    auth: 'P',
    tag: 'operations',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: {
        description: 'the OpenAPI document',
        schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
      },
    },
    handler: () => Promise.resolve({ body: (doc ??= getDocument()) }),
  });
}
