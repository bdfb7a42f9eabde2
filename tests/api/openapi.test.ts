// Proves the OpenAPI document against the real routes: built from the account route lists it is valid
// OpenAPI 3.1 (per an independent validator) and describes every route; served by the running API at
// GET /api/v1/openapi.json it lists exactly the routes the API mounts (read from `service.routes`, so
// routes added later are expected automatically), the ingest service's routes, /health and itself, and
// every operation it lists is really answered (by the API, or by ingest for /e/ and /t/) rather than
// falling through to "route not found".
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { authRoutes, keyRoutes, orgRoutes } from '@evds/accounts';
import { loadIngestConfig } from '@evds/config';
import { buildOpenApiDocument, openApiPath, type OpenApiDocument, type RouteDef } from '@evds/http';
import { createIngestService, type IngestService } from '@evds/ingest';
import { ingestRouteDocs } from '@evds/ingest-core';
import { client, startTestApi, type TestApi } from '@evds/testkit';
import { Validator } from '@seriousme/openapi-schema-validator';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const OPENAPI_PATH = '/api/v1/openapi.json';
/** Mounted by every service beside its route list. */
const health = { method: 'get', path: '/health' } as const;

/** Every `METHOD /path` the document describes. */
const documented = (doc: OpenApiDocument): string[] =>
  Object.entries(doc.paths ?? {})
    .flatMap(([path, item]) =>
      METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();

const expected = (routes: Pick<RouteDef, 'method' | 'path'>[]): string[] =>
  [...new Set(routes.map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`))].sort();

async function expectValid(doc: unknown) {
  const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>);
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
}

describe('the account routes', () => {
  // Building the lists only captures their dependencies; nothing here touches them.
  const routes = [
    ...authRoutes({
      db: {} as never,
      loginLimiter: {} as never,
      loginPrefixLimiter: {} as never,
      loginAccountLimiter: {} as never,
      signupLimiter: {} as never,
      sessionTtlSeconds: 1,
      sessionsPerUser: 1,
    }),
    ...orgRoutes({ db: {} as never }),
    ...keyRoutes({ db: {} as never, keysPerOrg: 1 }),
  ];
  const doc = buildOpenApiDocument(routes, { title: 'accounts', version: '1' });

  it('make a valid OpenAPI 3.1 document', () => expectValid(doc));

  it('are all documented, with /health', () => {
    expect(documented(doc)).toEqual(expected([...routes, health]));
  });

  it('carry their auth kind and declared answers', () => {
    const paths = doc.paths as Record<string, Record<string, { security: unknown; responses: object }>>;
    expect(paths['/api/v1/auth/login']?.post?.security).toEqual([]);
    expect(paths['/api/v1/auth/logout']?.post?.security).toEqual([{ sessionToken: [] }]);
    expect(paths['/api/v1/keys/{id}']?.delete?.security).toEqual([{ apiKey: [] }, { sessionToken: [] }]);
    expect(Object.keys(paths['/api/v1/auth/login']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '429']),
    );
    expect(Object.keys(paths['/api/v1/keys']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '402', '409', '413', '415']),
    );
  });
});

describe('GET /api/v1/openapi.json on the running API', () => {
  let api: TestApi;
  let ingest: IngestService;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    api = await startTestApi();
    ingest = createIngestService(loadIngestConfig(api.env));
    await ingest.start();
    const res = await api.request<OpenApiDocument>(OPENAPI_PATH);
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => {
    await ingest.destroy();
    await api.stop();
  });

  it('is a valid OpenAPI 3.1 document', () => expectValid(doc));

  it('lists exactly the routes the API and ingest mount, /health and itself', () => {
    expect(api.service.routes).toContainEqual(expect.objectContaining({ method: 'get', path: OPENAPI_PATH }));
    expect(documented(doc)).toEqual(expected([...api.service.routes, ...ingestRouteDocs, health]));
  });

  it('lists only operations the API really answers', async () => {
    const fallthrough: string[] = [];
    for (const op of documented(doc)) {
      const [method = '', path = ''] = op.split(' ');
      // Any well-formed id will do: without credentials a guarded route answers 401 before looking it up.
      const url = path.replace(/\{\w+\}/g, '0123456789abcdef0123456789abcdef');
      const target = /^\/(e|t)\//.test(path) ? client(`http://127.0.0.1:${ingest.port()}`) : api.request;
      const res = await target(url, { method, ...(method === 'GET' ? {} : { body: {} }) });
      if (
        (res.status === 404 && res.body.error === 'route not found') ||
        res.body.code === 'method_not_allowed'
      )
        fallthrough.push(op);
    }
    expect(fallthrough).toEqual([]);
  });
});
