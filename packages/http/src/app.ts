import type { HttpMetrics } from '@evds/metrics';
import express, { type Express, type Router } from 'express';
import type { Logger } from 'pino';
import { errorHandler, notFoundHandler } from './errors.ts';
import { requestMetrics } from './metrics.ts';
import { requestLogger } from './request-log.ts';
import { dashboardCors, securityHeaders } from './security.ts';

export interface HttpAppOptions {
  logger: Logger;
  dashboardOrigin: string;
  trustProxy: string[];
  /** Mounted after the common middleware, before the 404 and error handlers. */
  routes: Router;
  /** Requests by route template and status (optional: route tests need not pass it). */
  metrics?: HttpMetrics;
}

/** The express app shared by api and ingest: headers, request log, CORS, routes, 404 and errors. */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', opts.trustProxy.length > 0 ? opts.trustProxy : false);
  app.set('query parser', 'simple');
  if (opts.metrics) app.use(requestMetrics(opts.metrics));
  app.use(securityHeaders());
  app.use(requestLogger(opts.logger));
  app.use(dashboardCors(opts.dashboardOrigin));
  app.use(opts.routes);
  app.use(notFoundHandler);
  app.use(errorHandler(opts.logger));
  return app;
}
