import { AppError } from '@evds/domain';
import express, { type RequestHandler } from 'express';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request body exactly as received (ingest archives these bytes); empty when there was none. */
      rawBody: Buffer;
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const hasBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

const isJsonType = (type: string | undefined): boolean => {
  const media = type?.split(';')[0]?.trim().toLowerCase();
  return (
    media === 'application/json' || (media !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(media))
  );
};

/**
 * JSON-only bodies: a body with another content type is 415, one over `limit` bytes is 413, one that
 * is not UTF-8 JSON is 400. The parsed value lands in req.body and the exact bytes in req.rawBody.
 */
export function jsonBody(limit: number): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit });
  return [
    (req, res, next) => {
      req.rawBody = Buffer.alloc(0);
      if (!hasBody(req.headers)) return next();
      if (!isJsonType(req.headers['content-type'])) {
        // Drain what was sent so the connection stays usable, then refuse.
        req.resume();
        return next(new AppError('unsupported_media_type', 'request body must be application/json'));
      }
      // Refused before a byte is read: body-parser would first wait for all the announced bytes, which
      // a client that announces more than it sends never delivers. The connection is not worth keeping.
      if (Number(req.headers['content-length']) > limit) {
        res.setHeader('Connection', 'close');
        return next(new AppError('payload_too_large', 'request body is too large'));
      }
      raw(req, res, next);
    },
    (req, _res, next) => {
      if (Buffer.isBuffer(req.body)) req.rawBody = req.body;
      if (req.rawBody.length === 0) {
        req.body = undefined;
        return next();
      }
      try {
        req.body = JSON.parse(utf8.decode(req.rawBody)) as unknown;
      } catch {
        return next(new AppError('invalid_json', 'request body is not valid JSON'));
      }
      next();
    },
  ];
}
