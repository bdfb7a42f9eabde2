import { isDbUnavailable, isStatementTimeout } from '@evds/db';
import { AppError } from '@evds/domain';
import type { Logger } from 'pino';
import { isRedisUnavailable } from '@evds/queue';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { skipUnreadBody } from './body.ts';

/** The body of every error answer (decisions §3), as the error handler below writes it. */
export const errorSchema = z.object({ error: z.string(), code: z.string() });

export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new AppError('not_found', 'route not found'));
};

/** Seconds a client should wait before retrying when a backing service is down. */
export const UNAVAILABLE_RETRY_AFTER = '5';

/** body-parser's own errors, which carry an HTTP status and a `type`. */
function fromBodyParser(err: { type?: string; status?: number }): AppError | undefined {
  switch (err.type) {
    case 'entity.too.large':
      return new AppError('payload_too_large', 'request body is too large');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'entity.verify.failed':
      return new AppError('bad_request', 'request body could not be read');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 'request body must be UTF-8 application/json');
    case undefined:
    default:
      return undefined;
  }
}

/**
 * Other requests express cannot read: a path segment that is not valid percent-encoding (the router's
 * URIError) names no resource, like an id of the wrong shape; a body that does not decompress is
 * marked by body-parser as a client error (http-errors, `expose`) without a type of its own.
 */
function fromUnreadableRequest(err: { status?: unknown; expose?: unknown }): AppError | undefined {
  if (err instanceof URIError) return new AppError('not_found', 'resource not found');
  if (err.expose === true && typeof err.status === 'number' && err.status >= 400 && err.status < 500)
    return new AppError('bad_request', 'request body could not be read');
  return undefined;
}

/** Maps every error to `{error, code}`; anything unexpected is a generic 500 with details in the log only. */
export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    let e: AppError;
    if (err instanceof AppError) e = err;
    else if (isStatementTimeout(err))
      e = new AppError(
        'unavailable',
        'the request took too long in the database; retry later or narrow the query',
        { 'Retry-After': UNAVAILABLE_RETRY_AFTER },
      );
    else if (isDbUnavailable(err) || isRedisUnavailable(err))
      e = new AppError('unavailable', 'service temporarily unavailable, retry later', {
        'Retry-After': UNAVAILABLE_RETRY_AFTER,
      });
    else
      e =
        fromBodyParser(err as { type?: string }) ??
        fromUnreadableRequest(err as { status?: unknown }) ??
        new AppError('internal', 'internal server error');

    if (e.code === 'internal') logger.error({ err, reqId: req.id }, 'unhandled error');
    else if (e.code === 'unavailable') logger.warn({ err, reqId: req.id }, 'backing service unavailable');
    // A refusal before the body was read (401, 429, 413, 415...) does not read the rest of it either.
    skipUnreadBody(req, res);
    res.status(e.status).set(e.headers).json({ error: e.message, code: e.code });
  };
