// The dashboard's express app: security headers, request log and metrics, the CSRF guard, the /app
// routes, the /api/v1 forwarder, then the web app's pages; JSON 404 and `{error, code}` errors last.
import { requestLogger, requestMetrics } from '@evds/http';
import type { HttpMetrics } from '@evds/metrics';
import type { Logger } from '@evds/runtime';
import express, { type Express } from 'express';
import type { ApiClient } from './api-client.ts';
import { sessionCookie } from './cookie.ts';
import { csrfGuard } from './csrf.ts';
import { DashboardError, dashboardErrorHandler } from './errors.ts';
import { forwardRoutes } from './forward.ts';
import { securityHeaders } from './headers.ts';
import type { InboxClient } from './inbox.ts';
import { pageRoutes } from './pages.ts';
import { appRoutes } from './session-routes.ts';

export interface DashboardAppOptions {
  logger: Logger;
  metrics?: HttpMetrics;
  api: ApiClient;
  environment: 'development' | 'test' | 'production';
  /** The dashboard's public origin; empty outside production: the request's own origin. */
  publicOrigin: string;
  trustProxy: string[];
  staticDir: string;
  bodyLimitBytes: number;
  inbox?: { client: InboxClient; url: string };
}

const METHODS = 'GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS';
const BACK_END = /^\/(app|api)(\/|$)/i;

export function createDashboardApp(opts: DashboardAppOptions): Express {
  const production = opts.environment === 'production';
  const cookie = sessionCookie(production);
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', opts.trustProxy.length > 0 ? opts.trustProxy : false);
  if (opts.metrics)
    app.use(requestMetrics(opts.metrics, (status) => (status < 400 ? 'static' : 'unmatched')));
  app.use(securityHeaders(production));
  app.use(requestLogger(opts.logger));
  // Same origin only: no CORS is granted, so a preflight gets no Access-Control-Allow-* header and the
  // browser stops there. Answered here rather than by express's automatic text/plain reply.
  app.use((req, res, next) => {
    if (req.method !== 'OPTIONS') return next();
    res.status(204).setHeader('Allow', METHODS);
    res.end();
  });
  const guard = csrfGuard(opts.publicOrigin);
  app.use((req, res, next) => (BACK_END.test(req.path) ? guard(req, res, next) : next()));
  app.use(
    appRoutes({
      api: opts.api,
      cookie,
      bodyLimitBytes: opts.bodyLimitBytes,
      environment: opts.environment,
      inbox: opts.inbox,
    }),
  );
  app.use(
    forwardRoutes({ api: opts.api, cookie, bodyLimitBytes: opts.bodyLimitBytes, inbox: opts.inbox?.client }),
  );
  app.use(pageRoutes(opts.staticDir));
  app.use((_req, _res, next) => next(new DashboardError(404, 'not_found', 'route not found')));
  app.use(dashboardErrorHandler(opts.logger));
  return app;
}
