import type { HttpMetrics } from '@evds/metrics';
import express, { type Express, type Router } from 'express';
import type { Logger } from 'pino';
import { errorHandler, notFoundHandler } from './errors.ts';
import { createMethodTable } from './method-table.ts';
import { answerOptions, refuseOtherMethods } from './methods.ts';
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

/**
 * The express app shared by api and ingest: headers, request log, OPTIONS, CORS, routes, 405, 404 and
 * errors. Every answer, OPTIONS and HEAD included, is JSON (or bodiless) with the six security headers.
 */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', opts.trustProxy.length > 0 ? opts.trustProxy : false);
  app.set('query parser', 'simple');
  if (opts.metrics) app.use(requestMetrics(opts.metrics));
  app.use(securityHeaders());
  app.use(requestLogger(opts.logger));
  const methods = createMethodTable(opts.routes);
  app.use(answerOptions(methods, opts.dashboardOrigin));
  app.use(dashboardCors(opts.dashboardOrigin, methods.found));
  app.use(opts.routes);
  app.use(refuseOtherMethods(methods));
  app.use(notFoundHandler);
  app.use(errorHandler(opts.logger));
  return app;
}
