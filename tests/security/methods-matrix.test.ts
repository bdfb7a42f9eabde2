// Proves OPTIONS, HEAD and unserved methods on every path the OpenAPI document lists (api and ingest) and on
// unknown paths: a dashboard preflight gets 204 with the CORS grant for the path's own methods; one from any
// other origin a 403 {error, code: cors_refused} with no Access-Control-* header; a plain OPTIONS 204 with
// `Allow`; HEAD answers as GET would (status, content type, length) without a body, or 405 JSON with `Allow`
// where there is no GET, as any method a path lacks does; unknown paths get the JSON 404 whatever the method.
// Every answer has the six security headers exactly, none is a 5xx or text/plain, and no row changes.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadIngestConfig } from '@evds/config';
import type { OpenApiDocument } from '@evds/http';
import { createIngestService, type IngestService } from '@evds/ingest';
import { client, startTestApi, type TestApi } from '@evds/testkit';
import { createOrgFixtures, mintSession, snapshotRows, type OrgFixtures } from './org-fixtures.ts';
import { rawRequest, type RawResponse } from './raw-http.ts';
import { documentedOps, routeRequests, type DocumentedOp } from './route-table.ts';

const DASHBOARD = 'https://dashboard.test';
/** Request header fields, in order. */
type Fields = [string, string][];
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};
/** Methods a client may try on any path; the ones a path lacks must answer 405. */
const TRIED = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'];
/** Paths neither service serves, sent byte for byte to both (api paths are unknown to ingest too). */
const UNKNOWN = [
  '/',
  '/api/v1/',
  '/api/v1/nope',
  '/api/v1/keys/abc/extra',
  '/api/v2/keys',
  '/e',
  '/e/',
  '/e/abc/extra',
  '/t/',
  '/%zz',
  '/api/v1/k%C3%A9ys',
  '/api/v1/keys%2Fextra/x',
  '/api/v1/<script>\'"',
  '/api/v1/keys;x=1/y',
];

let api: TestApi;
let ingestService: IngestService;
let ingestPort: number;
let a: OrgFixtures;
/** Each documented path once, with the methods the document gives it and a request on A's resources. */
let paths: { service: 'api' | 'ingest'; template: string; url: string; ops: DocumentedOp[] }[];

beforeAll(async () => {
  api = await startTestApi({ DASHBOARD_ORIGIN: DASHBOARD });
  ingestService = createIngestService(loadIngestConfig(api.env));
  await ingestService.start();
  ingestPort = ingestService.port();
  const doc = (await api.request<OpenApiDocument>('/api/v1/openapi.json')).body;
  a = await createOrgFixtures(api.database.db, api.request, client(`http://127.0.0.1:${ingestPort}`));
  const byPath = new Map<string, DocumentedOp[]>();
  for (const op of documentedOps(doc)) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  paths = [...byPath.entries()].map(([template, ops]) => {
    const first = ops[0] as DocumentedOp;
    const [req] = routeRequests(first, a);
    if (!req) throw new Error(`${first.op}: no request`);
    return { service: first.service, template, url: req.path, ops };
  });
}, 60_000);

afterAll(async () => {
  await ingestService?.destroy();
  await api?.stop();
});

const portOf = (service: 'api' | 'ingest'): number =>
  service === 'ingest' ? ingestPort : Number(new URL(api.baseUrl).port);

const send = (service: 'api' | 'ingest', method: string, path: string, headers: Fields = []) =>
  rawRequest(portOf(service), { method, path, headers }, 10_000);

const methodSet = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m !== '')
    .sort();

/** What `Allow` must list: the documented methods, HEAD with GET, and OPTIONS. */
const allowOf = (ops: DocumentedOp[]): string[] => {
  const methods = new Set<string>(ops.map((o) => o.method));
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods].sort();
};

/** [] when `ok`, else the fault: answers are checked as lists of faults, reported all at once. */
const need = (ok: boolean, fault: string): string[] => (ok ? [] : [fault]);
const sameMethods = (header: string | undefined, expected: string[]): boolean =>
  JSON.stringify(methodSet(header)) === JSON.stringify(expected);

/**
 * What every answer must satisfy, as a list of faults: the six headers, no 5xx, a JSON content type on
 * every body, and a CORS grant only for the dashboard origin.
 */
function commonFaults(r: RawResponse, origin: string | undefined, tolerate5xx = false): string[] {
  const faults: string[] = [];
  for (const [name, value] of Object.entries(SECURITY_HEADERS))
    if (r.headers[name] !== value) faults.push(`${name}: ${r.headers[name]}`);
  if (r.status >= 500 && !tolerate5xx) faults.push(`status ${r.status}`);
  const type = r.headers['content-type'];
  if ((r.body.length > 0 || type !== undefined) && !/^application\/json(;|$)/.test(type ?? ''))
    faults.push(`content-type ${type}`);
  const grants = Object.keys(r.headers).filter((h) => h.startsWith('access-control-allow-'));
  if (origin !== DASHBOARD && grants.length > 0) faults.push(`CORS grant ${grants.join(',')}`);
  return faults;
}

const describeAnswer = (r: RawResponse): string =>
  `${r.status} ${r.headers['content-type']} ${r.body.toString('utf8').slice(0, 120)}`;

/** Adds one line naming the request and its faults, when it has any. */
const report = (failures: string[], what: string, r: RawResponse, faults: string[]): void => {
  if (faults.length > 0) failures.push(`${what}: ${faults.join('; ')} (${describeAnswer(r)})`);
};
const isJson = (r: RawResponse): boolean => /^application\/json/.test(r.headers['content-type'] ?? '');
const errorBody = (r: RawResponse): { error?: unknown; code?: unknown } | undefined => {
  try {
    return JSON.parse(r.body.toString('utf8')) as { error?: unknown; code?: unknown };
  } catch {
    return undefined;
  }
};

const db = () => api.database.db;
const keyAuth = (): Fields => [['Authorization', `Bearer ${a.ws.apiKey}`]];
const preflight = (origin: string, method: string): Fields => [
  ['Origin', origin],
  ['Access-Control-Request-Method', method],
  ['Access-Control-Request-Headers', 'authorization,content-type,x-session-token'],
];

describe('OPTIONS, HEAD and unserved methods', () => {
  it('covers every documented path, the ingest ones included', () => {
    expect(paths.length).toBeGreaterThan(25);
    const ingestPaths = paths.filter((p) => p.service === 'ingest').map((p) => p.template);
    expect(ingestPaths).toEqual(['/e/{endpoint_id}', '/t/{target_id}']);
  });

  it('OPTIONS on every documented path: 204 preflight for the dashboard, 403 JSON for others, 204 Allow', async () => {
    const failures: string[] = [];
    for (const p of paths) {
      const allow = allowOf(p.ops);
      const requested = p.ops[0]?.method ?? 'GET';
      const before = await snapshotRows(db());
      const fault = (what: string, r: RawResponse, faults: string[]) =>
        report(failures, `OPTIONS ${p.template} ${what}`, r, faults);

      const ok = await send(p.service, 'OPTIONS', p.url, preflight(DASHBOARD, requested));
      const grantedMethods = ok.headers['access-control-allow-methods'];
      fault('dashboard preflight', ok, [
        ...commonFaults(ok, DASHBOARD),
        ...need(ok.status === 204, 'not 204'),
        ...need(ok.headers['access-control-allow-origin'] === DASHBOARD, 'no Access-Control-Allow-Origin'),
        ...need(sameMethods(grantedMethods, allow), `Access-Control-Allow-Methods ${grantedMethods}`),
        ...need(/x-session-token/i.test(ok.headers['access-control-allow-headers'] ?? ''), 'allowed headers'),
        ...need(ok.body.length === 0, 'a body'),
      ]);

      for (const origin of ['https://evil.test', 'null', `${DASHBOARD}.evil.test`, 'http://dashboard.test']) {
        const r = await send(p.service, 'OPTIONS', p.url, preflight(origin, requested));
        const body = errorBody(r);
        fault(`preflight from ${origin}`, r, [
          ...commonFaults(r, origin),
          ...need(r.status === 403, 'not 403'),
          ...need(body?.code === 'cors_refused' && typeof body.error === 'string', 'no cors_refused body'),
          ...Object.keys(r.headers).filter((h) => h.startsWith('access-control-')),
        ]);
      }

      for (const [what, headers] of [
        ['plain', []],
        ['plain with a foreign Origin', [['Origin', 'https://evil.test']]],
      ] as [string, Fields][]) {
        const r = await send(p.service, 'OPTIONS', p.url, headers);
        fault(what, r, [
          ...commonFaults(r, headers[0]?.[1]),
          ...need(r.status === 204, 'not 204'),
          ...need(sameMethods(r.headers.allow, allow), `Allow ${r.headers.allow}`),
          ...need(r.body.length === 0, 'a body'),
        ]);
      }
      if (JSON.stringify(await snapshotRows(db())) !== JSON.stringify(before))
        failures.push(`OPTIONS ${p.template}: rows changed`);
    }
    expect(failures).toEqual([]);
  });

  it('HEAD answers as GET without a body, or 405 JSON with Allow where there is no GET', async () => {
    const failures: string[] = [];
    for (const p of paths) {
      const get = p.ops.find((o) => o.method === 'GET');
      const sessionOnly = (get ?? p.ops[0])?.auth === 'S';
      const credential: Fields = sessionOnly
        ? [['X-Session-Token', await mintSession(db(), a.ws)]]
        : keyAuth();
      for (const [what, headers] of [
        ['without credentials', []],
        ['with a credential', credential],
        ['from the dashboard', [...credential, ['Origin', DASHBOARD]]],
      ] as [string, Fields][]) {
        const before = await snapshotRows(db());
        const head = await send(p.service, 'HEAD', p.url, headers);
        const after = await snapshotRows(db());
        const origin = headers.find(([n]) => n === 'Origin')?.[1];
        const faults = [
          ...need(head.body.length === 0, 'a body'),
          ...need(JSON.stringify(before) === JSON.stringify(after), 'rows changed'),
        ];
        if (get) {
          const twin = await send(p.service, 'GET', p.url, headers);
          const billingOff = errorBody(twin)?.code === 'billing_disabled';
          const [h, g] = [head.headers, twin.headers];
          faults.push(
            ...commonFaults(head, origin, billingOff),
            ...need(head.status === twin.status, `status ${head.status}, GET ${twin.status}`),
            ...need(h['content-type'] === g['content-type'], `GET's content-type ${g['content-type']}`),
            // Bodies with credentials may differ from one call to the next; refusals never do.
            ...need(
              what !== 'without credentials' || h['content-length'] === g['content-length'],
              `length ${h['content-length']}, GET ${g['content-length']}`,
            ),
          );
        } else {
          faults.push(
            ...commonFaults(head, origin),
            ...need(head.status === 405, 'not 405'),
            ...need(isJson(head), 'no JSON content type'),
            ...need(sameMethods(head.headers.allow, allowOf(p.ops)), `Allow ${head.headers.allow}`),
          );
        }
        report(failures, `HEAD ${p.template} ${what}`, head, faults);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a method a documented path lacks answers 405 JSON with Allow, credentials or not', async () => {
    const failures: string[] = [];
    let cells = 0;
    const before = await snapshotRows(db());
    for (const p of paths) {
      const allow = allowOf(p.ops);
      for (const method of TRIED.filter((m) => !allow.includes(m)))
        for (const headers of [[], keyAuth()] as Fields[]) {
          cells++;
          const r = await send(p.service, method, p.url, headers);
          const body = errorBody(r);
          const faults = [
            ...commonFaults(r, undefined),
            ...need(r.status === 405, 'not 405'),
            ...need(body?.code === 'method_not_allowed' && typeof body.error === 'string', 'no error body'),
            ...need(sameMethods(r.headers.allow, allow), `Allow ${r.headers.allow}`),
          ];
          report(failures, `${method} ${p.template}`, r, faults);
        }
    }
    expect(JSON.stringify(await snapshotRows(db()))).toBe(JSON.stringify(before));
    expect(failures).toEqual([]);
    expect(cells).toBeGreaterThan(paths.length * 2);
  });

  it('unknown paths answer the JSON 404 to OPTIONS, HEAD and every other method, on both services', async () => {
    const failures: string[] = [];
    const before = await snapshotRows(db());
    const variants: [string, string, Fields][] = [
      ['OPTIONS', 'dashboard preflight', preflight(DASHBOARD, 'POST')],
      ['OPTIONS', 'foreign preflight', preflight('https://evil.test', 'POST')],
      ['OPTIONS', 'plain', []],
      ['HEAD', 'without credentials', []],
      ['HEAD', 'with a key', keyAuth()],
      ...TRIED.map((m): [string, string, Fields] => [m, 'plain', []]),
    ];
    for (const service of ['api', 'ingest'] as const)
      for (const path of UNKNOWN)
        for (const [method, what, headers] of variants) {
          const r = await send(service, method, path, headers);
          const body = errorBody(r);
          const origin = headers.find(([n]) => n === 'Origin')?.[1];
          report(failures, `${service} ${method} ${path} ${what}`, r, [
            ...commonFaults(r, origin),
            ...need(r.status === 404, 'not 404'),
            ...need(isJson(r), 'no JSON content type'),
            ...need(method === 'HEAD' ? r.body.length === 0 : body?.code === 'not_found', 'wrong body'),
          ]);
        }
    expect(JSON.stringify(await snapshotRows(db()))).toBe(JSON.stringify(before));
    expect(failures).toEqual([]);
  });
});
