// Proves how the dashboard serves the web app, with a small built app of its own (a temporary dist
// folder, DASHBOARD_STATIC_DIR): pages get the strict CSP and the other security headers and are never
// cached, hashed assets are cached for a year, any page path falls back to index.html, while /app and
// /api paths and JSON callers get JSON 404s; HEAD and OPTIONS on every kind of path, known or not,
// answer without a 500 or text/plain; JSON answers carry the security headers too. Without a build,
// pages answer a clear 503. The metrics port answers /live, /health (API and web app) and /metrics.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, startTestDashboard, type ServiceProcess, type TestDashboard } from '@evds/testkit';

const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-1a2b3c.js"></script></head></html>';

let dist: string;
let empty: string;
let t: TestDashboard;
let unbuilt: ServiceProcess;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'evds-dist-'));
  empty = mkdtempSync(join(tmpdir(), 'evds-nodist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), 'export const x = 1;\n');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await startTestDashboard({ dashboardEnv: { DASHBOARD_STATIC_DIR: dist } });
  unbuilt = await spawnService('dashboard', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    API_URL: t.api.baseUrl,
    DASHBOARD_STATIC_DIR: empty,
  });
});
afterAll(async () => {
  await unbuilt?.kill();
  await t?.stop();
  rmSync(dist, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

const get = (path: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8', base = t.url) =>
  fetch(base + path, { headers: { accept } });

function expectSecurityHeaders(res: Response): void {
  expect({
    nosniff: res.headers.get('x-content-type-options'),
    frame: res.headers.get('x-frame-options'),
    referrer: res.headers.get('referrer-policy'),
    coop: res.headers.get('cross-origin-opener-policy'),
    permissions: res.headers.get('permissions-policy'),
    csp: res.headers.get('content-security-policy'),
  }).toEqual({
    nosniff: 'nosniff',
    frame: 'DENY',
    referrer: 'no-referrer',
    coop: 'same-origin',
    permissions: expect.stringContaining('camera=()'),
    csp: expect.stringContaining("frame-ancestors 'none'"),
  });
}

describe('pages', () => {
  it.each(['/', '/targets', '/events/evt_123', '/index.html'])(
    '%s is index.html under the page CSP, never cached',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(INDEX);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expectSecurityHeaders(res);
      // Local development and tests serve plain HTTP: no HSTS there.
      expect(res.headers.get('strict-transport-security')).toBeNull();
    },
  );

  it('hashed assets are cached for a year; other files are revalidated', async () => {
    const asset = await get('/assets/app-1a2b3c.js', '*/*');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expectSecurityHeaders(asset);
    const icon = await get('/favicon.svg', 'image/*');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('/app, /api, missing assets and JSON callers get JSON 404s, never the page', async () => {
    for (const [path, accept] of [
      ['/app/no-such-route', 'text/html'],
      ['/app', 'text/html'],
      ['/api/no-such-route', 'text/html'],
      ['/api', 'text/html'],
      ['/assets/missing-000.js', 'text/html'],
      ['/targets', 'application/json'],
    ]) {
      const res = await get(path!, accept);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 404,
        type: expect.stringMatching(/^application\/json/),
      });
      expect(await res.json()).toEqual({ error: expect.any(String), code: 'not_found' });
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expectSecurityHeaders(res);
    }
    // An unknown API route is the API's own JSON 404, passed on.
    const api = await get('/api/v1/no-such-route', 'text/html');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await api.json()).toEqual({ error: 'route not found', code: 'not_found' });
  });

  it('a known /app route with another method: 405 JSON naming the methods', async () => {
    const res = await fetch(`${t.url}/app/login`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ error: expect.any(String), code: 'method_not_allowed' });
  });
});

describe('HEAD and OPTIONS on every kind of path', () => {
  const paths = [
    '/',
    '/targets',
    '/index.html',
    '/assets/app-1a2b3c.js',
    '/assets/missing-000.js',
    '/favicon.svg',
    '/app/config',
    '/app/me',
    '/app/login',
    '/app/logout',
    '/app/inbox',
    '/app/no-such-route',
    '/api/v1/orgs',
    '/api/v1/auth/login',
    '/api/v1/no-such-route',
    '/api/no-such-route',
  ];
  it.each(paths.flatMap((p) => [['HEAD', p] as const, ['OPTIONS', p] as const]))(
    '%s %s: no 500, no text/plain, the security headers',
    async (method, path) => {
      const res = await fetch(t.url + path, {
        method,
        headers: {
          accept: 'text/html',
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
        },
      });
      const body = await res.text();
      expect({ path, status: res.status < 500, body }).toEqual({ path, status: true, body: '' });
      expect(res.headers.get('content-type') ?? '').not.toMatch(/text\/plain/);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expectSecurityHeaders(res);
      if (method === 'OPTIONS') expect(res.status).toBe(204);
    },
  );
});

describe('without a built web app', () => {
  it('pages answer a clear 503, as HTML to a browser and JSON to anything else', async () => {
    const page = await get('/', 'text/html', unbuilt.url);
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(await page.text()).toContain('pnpm --filter @evds/dashboard-web build');
    const json = await get('/targets', 'application/json', unbuilt.url);
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({ error: expect.stringContaining('not built'), code: 'unavailable' });
    // The back end itself still works.
    expect((await get('/app/config', 'application/json', unbuilt.url)).status).toBe(200);
    expect((await fetch(`${unbuilt.metricsUrl}/health`)).status).toBe(503);
  });
});

describe('the metrics port', () => {
  it('answers /live, /health (API and web app) and /metrics with the requests by route', async () => {
    expect((await fetch(`${t.dashboard.metricsUrl}/live`)).status).toBe(200);
    const health = await fetch(`${t.dashboard.metricsUrl}/health`);
    expect({ status: health.status, body: await health.json() }).toEqual({
      status: 200,
      body: { status: 'ok', checks: { api: 'ok', web_app: 'ok' } },
    });
    const metrics = await (await fetch(`${t.dashboard.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(/evds_http_requests_total\{[^}]*route="\/app\/config"[^}]*service="dashboard"/);
    expect(metrics).toMatch(/evds_http_requests_total\{[^}]*route="\/api\/v1\/\*rest"/);
  });
});
