import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Level, Logger } from 'pino';
import type { RequestHandler } from 'express';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id: the caller's X-Request-Id when well formed, else a new one. */
      id: string;
      /** When the request reached the app (performance.now()), before any of its own work began. */
      receivedAt: number;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A caller's X-Request-Id is kept when it is well formed, so a request can be followed across services. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

// Refusals are worth a line each; successes are counted by metrics and logged only at debug.
const levelOf = (status: number): Level => (status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug');

/**
 * Gives each request its id (echoed as X-Request-Id) and logs one line when it is answered: id, method,
 * path (never the query string, headers or body), status and duration. Nothing is allocated for a line
 * whose level is off, which keeps the hot paths cheap.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    req.receivedAt = started;
    const id = requestIdOf(req);
    req.id = id;
    res.setHeader('X-Request-Id', id);
    res.once('finish', () => {
      const level = levelOf(res.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: { id, method: req.method, url: req.originalUrl.split('?')[0] },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    });
    next();
  };
}
