// Proves the OpenAPI generator on sample routes: the document is valid OpenAPI 3.1 (checked by an
// independent validator), holds exactly one operation per route plus /health, maps express paths and
// the P/K/S/KS auth kinds, and adds the common error answers only where they can happen.
import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { buildOpenApiDocument, openApiPath, openApiRoute, type OpenApiDocument } from './openapi.ts';
import { defineRoute, type RouteDef } from './routes.ts';

const ok = () => Promise.resolve({ body: {} });
const errorSchema = z.object({ error: z.string(), code: z.string() });

const routes: RouteDef[] = [
  defineRoute({
    method: 'post',
    path: '/api/v1/things',
    auth: 'K',
    tag: 'things',
    summary: 'Create a thing',
    body: z.strictObject({ name: z.string().min(1), note: z.string().optional() }),
    responses: {
      201: { description: 'created', schema: z.object({ id: z.string() }) },
      429: { description: 'too many things', schema: errorSchema },
    },
    handler: ok,
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/things/:id',
    auth: 'KS',
    tag: 'things',
    summary: 'One thing',
    params: z.object({ id: z.string().length(32) }),
    query: z.object({ expand: z.enum(['owner']).optional() }),
    responses: { 200: { description: 'the thing', schema: z.object({ id: z.string() }) } },
    handler: ok,
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/things/:id/parts/:part',
    auth: 'S',
    tag: 'things',
    summary: 'Update a part; only the id is declared',
    params: z.object({ id: z.string() }),
    body: z.strictObject({ colour: z.string().optional() }),
    responses: { 200: { description: 'updated' }, 409: { description: 'locked' } },
    handler: ok,
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/widgets/:widgetId',
    auth: 'KS',
    tag: 'widgets',
    summary: 'No params schema at all',
    responses: { 200: { description: 'deleted' } },
    handler: ok,
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/status',
    auth: 'P',
    tag: 'status',
    summary: 'Public',
    responses: { 200: { description: 'fine', schema: z.object({ ok: z.boolean() }) } },
    handler: ok,
  }),
];

const doc = buildOpenApiDocument(routes, { title: 'sample', version: '1.2.3', description: 'Sample API.' });

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean };
  responses: Record<string, { headers?: object; content?: { 'application/json': { schema: object } } }>;
};

/** Every `METHOD /path` the document describes. */
const documented = (d: OpenApiDocument): string[] =>
  Object.entries(d.paths ?? {})
    .flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete']
        .filter((m) => (item as Record<string, unknown>)[m])
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();

const expected = (rs: Pick<RouteDef, 'method' | 'path'>[]): string[] =>
  rs.map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`).sort();

const op = (path: string, method: string): Operation => {
  const o = (doc.paths?.[path] as Record<string, Operation> | undefined)?.[method];
  if (!o) throw new Error(`${method} ${path} is not documented`);
  return o;
};

const statuses = (o: Operation) => Object.keys(o.responses).map(Number);
const ERROR_REF = { $ref: '#/components/schemas/Error' };

describe('buildOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('documents every route, and /health, exactly once', () => {
    expect(documented(doc)).toEqual(expected([...routes, { method: 'get', path: '/health' }]));
    const ids = Object.values(doc.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, Operation>).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('turns express parameters into path templates, each declared as a required path parameter', () => {
    expect(openApiPath('/a/:id/b/:part_id')).toBe('/a/{id}/b/{part_id}');
    for (const [path, item] of Object.entries(doc.paths ?? {}))
      for (const o of Object.values(item as Record<string, Operation>)) {
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        const declared = (o.parameters ?? []).filter((p) => p.in === 'path');
        expect(declared.map((p) => p.name).sort()).toEqual(templated);
        expect(declared.every((p) => p.required)).toBe(true);
      }
    expect(op('/api/v1/things/{id}', 'get').parameters).toContainEqual(
      expect.objectContaining({ name: 'expand', in: 'query', required: false }),
    );
  });

  it('maps the auth kinds onto the two security schemes', () => {
    expect(doc.components?.securitySchemes).toMatchObject({
      apiKey: { type: 'http', scheme: 'bearer' },
      sessionToken: { type: 'apiKey', in: 'header', name: 'X-Session-Token' },
    });
    expect(op('/api/v1/things', 'post').security).toEqual([{ apiKey: [] }]);
    expect(op('/api/v1/things/{id}/parts/{part}', 'patch').security).toEqual([{ sessionToken: [] }]);
    expect(op('/api/v1/things/{id}', 'get').security).toEqual([{ apiKey: [] }, { sessionToken: [] }]);
    expect(op('/api/v1/status', 'get').security).toEqual([]);
    expect(op('/health', 'get').security).toEqual([]);
  });

  it('adds the common error answers only where they apply', () => {
    expect(statuses(op('/api/v1/things', 'post'))).toEqual([201, 400, 401, 413, 415, 429, 500, 503]);
    expect(statuses(op('/api/v1/things/{id}', 'get'))).toEqual([200, 400, 401, 404, 429, 500, 503]);
    expect(statuses(op('/api/v1/things/{id}/parts/{part}', 'patch'))).toEqual([
      200, 400, 401, 404, 409, 413, 415, 429, 500, 503,
    ]);
    expect(statuses(op('/api/v1/widgets/{widgetId}', 'delete'))).toEqual([200, 401, 404, 429, 500, 503]);
    expect(statuses(op('/api/v1/status', 'get'))).toEqual([200, 500, 503]);
  });

  it('gives every error answer the one Error component, and Retry-After to 429 and 503', () => {
    expect(doc.components?.schemas?.Error).toMatchObject({
      type: 'object',
      required: ['error', 'code'],
      properties: { error: { type: 'string' }, code: { type: 'string' } },
    });
    for (const o of routes.map((r) => op(openApiPath(r.path), r.method)))
      for (const [status, answer] of Object.entries(o.responses)) {
        if (Number(status) < 400) continue;
        expect(answer.content?.['application/json'].schema).toEqual(ERROR_REF);
        if (status === '429' || status === '503')
          expect(answer.headers).toHaveProperty(['Retry-After', 'schema', 'type'], 'integer');
      }
    expect(op('/health', 'get').responses['503']?.content?.['application/json'].schema).not.toEqual(
      ERROR_REF,
    );
  });

  it('marks a body required only when an empty body would fail its schema', () => {
    expect(op('/api/v1/things', 'post').requestBody?.required).toBe(true);
    expect(op('/api/v1/things/{id}/parts/{part}', 'patch').requestBody?.required).toBe(false);
  });

  it('describes both timestamp conventions after the given description', () => {
    const text = doc.info.description ?? '';
    expect(text.startsWith('Sample API.')).toBe(true);
    expect(text).toMatch(/Unix seconds/);
    expect(text).toMatch(/ISO 8601 UTC .*milliseconds/s);
    expect(text).toMatch(/GET \/api\/v1\/events/);
  });

  it('refuses a query schema it cannot turn into parameters', () => {
    const bad = defineRoute({
      method: 'get',
      path: '/api/v1/bad',
      auth: 'P',
      tag: 'bad',
      summary: 'bad',
      query: z.string(),
      responses: { 200: { description: 'never' } },
      handler: ok,
    });
    expect(() => buildOpenApiDocument([bad], { title: 't', version: '1' })).toThrow(/query schema/);
  });
});

describe('openApiRoute', () => {
  it('serves the document, built once, on a public GET route that documents itself', async () => {
    const all: RouteDef[] = [...routes];
    let builds = 0;
    const route = openApiRoute(() => {
      builds += 1;
      return buildOpenApiDocument(all, { title: 'sample', version: '1' });
    });
    all.push(route);
    expect(route).toMatchObject({ method: 'get', path: '/api/v1/openapi.json', auth: 'P' });
    const first = await route.handler({} as never);
    const second = await route.handler({} as never);
    expect(builds).toBe(1);
    expect(second.body).toBe(first.body);
    expect(documented(first.body as OpenApiDocument)).toEqual(
      expected([...all, { method: 'get', path: '/health' }]),
    );
  });
});
