import { AppError } from '@evds/domain';
import express, { type Request, type RequestHandler, type Response } from 'express';

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

/**
 * What Node discards by itself, after the answer, of a body nobody read: up to this much the
 * connection is worth keeping; beyond, or of unknown length, it is closed instead.
 */
const DISCARD_MAX_BYTES = 64 * 1024;

const hasBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

export const isJsonType = (type: string | undefined): boolean => {
  const media = type?.split(';')[0]?.trim().toLowerCase();
  return (
    media === 'application/json' || (media !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(media))
  );
};

/**
 * Checks a body by its headers alone, reading nothing: another content type is 415, a body announced
 * over `limit` is 413. Leaves req.rawBody empty.
 */
export function bodyHeaders(limit: number): RequestHandler {
  return (req, res, next) => {
    req.rawBody = Buffer.alloc(0);
    if (!hasBody(req.headers)) return next();
    // Refused unread: the error handler keeps the connection when the rest is short, else closes it.
    if (!isJsonType(req.headers['content-type']))
      return next(new AppError('unsupported_media_type', 'request body must be application/json'));
    // Refused before a byte is read: body-parser would first wait for all the announced bytes, which
    // a client that announces more than it sends never delivers. The connection is not worth keeping.
    if (Number(req.headers['content-length']) > limit) {
      res.setHeader('Connection', 'close');
      return next(tooLarge());
    }
    next();
  };
}

/** UTF-8 JSON text to a value; undefined for an empty body. */
export function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (raw.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(utf8.decode(raw)) as unknown };
  } catch {
    return { ok: false };
  }
}

export const invalidJson = (): AppError => new AppError('invalid_json', 'request body is not valid JSON');

/**
 * JSON-only bodies: a body with another content type is 415, one over `limit` bytes is 413, one that
 * is not UTF-8 JSON is 400. The parsed value lands in req.body and the exact bytes in req.rawBody.
 */
export function jsonBody(limit: number): RequestHandler[] {
  return [
    bodyHeaders(limit),
    (req, res, next) => {
      readWithin(req, res, limit).then(
        (read) => next(read === 'too_large' ? tooLarge() : undefined),
        (err: unknown) => next(err),
      );
    },
    (req, _res, next) => {
      if (Buffer.isBuffer(req.body)) req.rawBody = req.body;
      const parsed = parseJson(req.rawBody);
      if (!parsed.ok) return next(invalidJson());
      req.body = parsed.value;
      next();
    },
  ];
}

const tooLarge = (): AppError => new AppError('payload_too_large', 'request body is too large');

/** One parser per limit: building one per request would cost every ingest request. */
const rawParsers = new Map<number, RequestHandler>();
function rawParser(limit: number): RequestHandler {
  let parser = rawParsers.get(limit);
  if (!parser) rawParsers.set(limit, (parser = express.raw({ type: () => true, limit })));
  return parser;
}

/**
 * Reads the body into req.body through body-parser (decompression, length checks), but settles as
 * 'too_large' as soon as more than `limit` bytes have arrived: body-parser itself reads an oversize
 * body of unknown length to its very end before it says so, however long the sender keeps going.
 * The answer then closes the connection (skipUnreadBody), which ends that read.
 */
function readWithin(req: Request, res: Response, limit: number): Promise<'read' | 'too_large'> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= limit) return;
      req.off('data', count);
      resolve('too_large');
    };
    // Both listeners are on before the first chunk can be emitted (data events come asynchronously).
    req.on('data', count);
    void rawParser(limit)(req, res, (err?: unknown) => {
      req.off('data', count);
      if (!err) resolve('read');
      else if ((err as { type?: unknown }).type === 'entity.too.large') resolve('too_large');
      else reject(err instanceof Error ? err : new Error('request body could not be read'));
    });
  });
}

/**
 * Reads the body now, as raw bytes of any content type (bodyHeaders has checked it), at most `limit`
 * of them: 'too_large' beyond, and a body announced over `limit` is refused before a byte is read.
 */
export async function readRawBody(req: Request, res: Response, limit: number): Promise<Buffer | 'too_large'> {
  if (!hasBody(req.headers)) return req.rawBody;
  if (Number(req.headers['content-length']) > limit) return 'too_large';
  if ((await readWithin(req, res, limit)) === 'too_large') return 'too_large';
  if (Buffer.isBuffer(req.body)) req.rawBody = req.body;
  return req.rawBody;
}

/**
 * Before answering a request whose body was never read: a short rest is left for Node to discard
 * after the answer (the connection stays usable); a long one, or one of unknown length, is not worth
 * reading at all, so the connection is closed instead.
 */
export function skipUnreadBody(req: Request, res: Response): void {
  if (req.complete || !hasBody(req.headers) || res.headersSent) return;
  if (!(Number(req.headers['content-length']) <= DISCARD_MAX_BYTES)) res.setHeader('Connection', 'close');
}
