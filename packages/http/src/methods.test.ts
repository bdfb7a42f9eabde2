// Proves the method table and the OPTIONS/405 answers on a bare app over real HTTP, for what the services'
// route lists do not show: routers mounted under a prefix, express's matching rules (case, trailing slash),
// no dashboard origin configured (every preflight refused), and route shapes the table refuses at start.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@evds/runtime';
import { Router } from 'express';
import { createHttpApp } from './app.ts';
import { listen, type RunningServer } from './server.ts';

let srv: RunningServer;
const logger = createLogger({ level: 'silent', name: 'methods-test' });

const app = (routes: Router) => createHttpApp({ logger, dashboardOrigin: '', trustProxy: [], routes });

beforeAll(async () => {
  const v1 = Router();
  v1.get('/things/:id', (_req, res) => void res.json({ ok: true }));
  v1.delete('/things/:id', (_req, res) => void res.json({ ok: true }));
  const routes = Router();
  routes.post('/hooks', (_req, res) => void res.status(202).json({ ok: true }));
  routes.use('/v1', v1);
  srv = await listen(app(routes), 0, '127.0.0.1');
});
afterAll(() => srv.close());

const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${srv.port}${path}`, { method, headers });

describe('the method table', () => {
  it('knows routes of routers mounted under a prefix, as express matches them', async () => {
    for (const path of ['/v1/things/42', '/V1/Things/42', '/v1/things/42/']) {
      const r = await call('OPTIONS', path);
      expect([path, r.status, r.headers.get('allow')]).toEqual([path, 204, 'DELETE, GET, HEAD, OPTIONS']);
    }
    const unknown = await call('OPTIONS', '/things/42');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'route not found', code: 'not_found' });
  });

  it('answers 405 JSON with Allow to a method the path lacks, HEAD included', async () => {
    for (const method of ['PUT', 'PATCH', 'POST']) {
      const r = await call(method, '/v1/things/42');
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS');
      expect(await r.json()).toEqual({
        error: `${method} is not allowed here; allowed: DELETE, GET, HEAD, OPTIONS`,
        code: 'method_not_allowed',
      });
    }
    const head = await call('HEAD', '/hooks');
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'OPTIONS, POST']);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuses every preflight when no dashboard origin is configured, with no CORS grant', async () => {
    for (const origin of ['https://dashboard.test', 'null', '']) {
      const r = await call('OPTIONS', '/hooks', { origin, 'access-control-request-method': 'POST' });
      expect(r.status).toBe(403);
      expect(await r.json()).toEqual({
        error: 'cross-origin requests are only allowed from the dashboard origin',
        code: 'cors_refused',
      });
      expect([...r.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(r.headers.get('vary')).toMatch(/origin/i);
    }
  });

  it('refuses, when the app is created, routes it cannot list methods for', () => {
    const all = Router();
    all.all('/anything', (_req, res) => void res.json({}));
    expect(() => app(all)).toThrow(/\.all\(\)/);
    const regex = Router();
    regex.get(/^\/x+$/, (_req, res) => void res.json({}));
    expect(() => app(regex)).toThrow(/regular expressions/);
  });
});
