import { AppError } from '@evds/domain';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { authOf } from './auth.ts';
import { hitOrLetThrough, type RateLimiter } from './rate-limit.ts';

/**
 * Requests per credential (API key or session) on the management API, counted after authentication.
 * When Redis cannot answer the request goes through.
 */
export function perCredentialLimit(limiter: RateLimiter, logger: Logger): RequestHandler {
  return async (req, _res, next) => {
    const auth = authOf(req);
    const credential = auth.method === 'api_key' ? `api:key:${auth.keyId}` : `api:session:${auth.sessionId}`;
    const r = await hitOrLetThrough(limiter, credential, logger);
    if (!r.allowed)
      throw new AppError('rate_limited', 'rate limit exceeded for this credential, retry later', {
        'Retry-After': String(r.retryAfterSeconds),
      });
    next();
  };
}
