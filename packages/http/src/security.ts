import cors, { type CorsOptions } from 'cors';
import type { Request, RequestHandler } from 'express';
import helmet from 'helmet';

/** Request headers a browser on the dashboard origin may send. */
export const corsAllowedHeaders = [
  'Authorization',
  'X-Session-Token',
  'Content-Type',
  'X-Requested-With',
  'X-Event-Type',
  'X-Correlation-ID',
  'Idempotency-Key',
];

/**
 * The six headers every response carries (errors, 404s and preflights included), so this runs first.
 * helmet sets five of them; it is told to set nothing else.
 */
export function securityHeaders(): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } },
      strictTransportSecurity: { maxAge: 63072000, includeSubDomains: true, preload: true },
      xContentTypeOptions: true,
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      crossOriginResourcePolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
    (_req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
  ];
}

/**
 * CORS for the one configured dashboard origin; any other origin gets no Access-Control-Allow-* header.
 * A preflight is granted the methods its path serves when `methodsOf` knows them (the app's method table),
 * so the browser refuses a method the path lacks before sending it.
 */
export function dashboardCors(
  origin: string,
  methodsOf: (req: Request) => string[] | undefined = () => undefined,
): RequestHandler {
  const options: CorsOptions = {
    origin: (requestOrigin, cb) => cb(null, origin !== '' && requestOrigin === origin),
    allowedHeaders: corsAllowedHeaders,
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['Retry-After', 'X-Request-Id', 'Idempotent-Replayed'],
    maxAge: 600,
  };
  return cors<Request>((req, cb) => {
    const methods = methodsOf(req);
    cb(null, methods ? { ...options, methods } : options);
  });
}
