// The dashboard's own refusals (CSRF, no session, method, API down) carry codes the domain's table does
// not have; everything else (bodies, 404s, unexpected errors) goes through the API's error handler.
import { errorHandler, skipUnreadBody } from '@evds/http';
import type { Logger } from '@evds/runtime';
import type { ErrorRequestHandler } from 'express';

export class DashboardError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export const csrfRefused = (why: string): DashboardError =>
  new DashboardError(403, 'csrf_refused', `refused as a possible cross-site request: ${why}`);

export const notSignedIn = (): DashboardError =>
  new DashboardError(401, 'unauthenticated', 'not signed in, or the session has ended: sign in again');

export const apiUnavailable = (): DashboardError =>
  new DashboardError(503, 'unavailable', 'the API is not answering, retry later', { 'Retry-After': '5' });

/** `{error, code}` for every failure, never a stack or an HTML page. */
export function dashboardErrorHandler(logger: Logger): ErrorRequestHandler {
  const common = errorHandler(logger);
  return (err: unknown, req, res, next) => {
    if (!(err instanceof DashboardError) || res.headersSent) return common(err, req, res, next);
    skipUnreadBody(req, res);
    res.status(err.status).set(err.headers).json({ error: err.message, code: err.code });
  };
}
