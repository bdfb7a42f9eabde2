import { findApiKey, findSession, type Db, type KeyAuth, type SessionAuth } from '@evds/db';
import { AppError, isApiKeyShaped, isSessionTokenShaped, sha256 } from '@evds/domain';
import type { Request, RequestHandler } from 'express';
import { tooManyAuthFailures, type AuthFailureLimit } from './auth-failures.ts';

export type Auth =
  | { method: 'api_key'; orgId: string; keyId: string; userId: string | null }
  | { method: 'session'; orgId: string; userId: string; sessionId: string };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: Auth;
    }
  }
}

/** Which credentials a route takes: K = API key, S = session token, KS = either. */
export type AuthKind = 'K' | 'S' | 'KS';

/** Looks credentials up by hash. The API reads Postgres every time; ingest may put a cache in front. */
export interface CredentialStore {
  apiKey(hash: string): Promise<KeyAuth | undefined>;
  session(hash: string): Promise<SessionAuth | undefined>;
  /**
   * Told of each key that authenticated a request the service then accepted (answered below 400), for
   * its `last_used_at`; must not throw or wait.
   */
  keyUsed?(keyId: string): void;
}

export const dbCredentialStore = (db: Db, keyUsed?: (keyId: string) => void): CredentialStore => ({
  apiKey: (hash) => findApiKey(db, hash),
  session: (hash) => findSession(db, hash),
  ...(keyUsed ? { keyUsed } : {}),
});

const unauthenticated = (msg: string) => new AppError('unauthenticated', msg);

export function bearerOf(req: Request): string | undefined {
  const h = req.headers.authorization;
  if (h === undefined) return undefined;
  const m = /^Bearer +(\S+) *$/i.exec(h);
  if (!m?.[1]) throw unauthenticated('Authorization header must be "Bearer <API key>"');
  return m[1];
}

async function viaKey(store: CredentialStore, key: string): Promise<Auth> {
  const found = isApiKeyShaped(key) ? await store.apiKey(sha256(key)) : undefined;
  if (!found) throw unauthenticated('invalid or revoked API key');
  return { method: 'api_key', orgId: found.org_id, keyId: found.key_id, userId: found.created_by_user_id };
}

async function viaSession(store: CredentialStore, token: string): Promise<Auth> {
  const found = isSessionTokenShaped(token) ? await store.session(sha256(token)) : undefined;
  if (!found) throw unauthenticated('invalid, expired or revoked session token');
  return { method: 'session', orgId: found.org_id, userId: found.user_id, sessionId: found.session_id };
}

/** The credential a route takes, resolved from the request; a 401 when there is none that works. */
async function resolveAuth(kind: AuthKind, store: CredentialStore, req: Request): Promise<Auth> {
  const key = bearerOf(req);
  const rawToken = req.headers['x-session-token'];
  const token = typeof rawToken === 'string' && rawToken !== '' ? rawToken : undefined;
  if (kind === 'S') {
    if (token) return viaSession(store, token);
    throw new AppError(
      'wrong_credential_kind',
      key ? 'this route requires a session token' : 'missing session token (X-Session-Token)',
    );
  }
  if (kind === 'K') {
    if (key) return viaKey(store, key);
    throw new AppError(
      'wrong_credential_kind',
      token ? 'this route requires an API key' : 'missing API key (Authorization: Bearer <API key>)',
    );
  }
  if (key) return viaKey(store, key);
  if (token) return viaSession(store, token);
  throw unauthenticated('missing credentials: send Authorization: Bearer <API key> or X-Session-Token');
}

/**
 * Guards a route: resolves the credential the route takes into req.auth, or answers 401. With a
 * failure limit, an address that failed too often is answered 429 before its credential is looked up.
 */
export function requireAuth(
  kind: AuthKind,
  store: CredentialStore,
  failures?: AuthFailureLimit,
): RequestHandler {
  return async (req, res, next) => {
    const ip = req.ip ?? 'unknown';
    const blocked = failures?.blockedFor(ip) ?? 0;
    if (blocked > 0) throw tooManyAuthFailures(blocked);
    try {
      const auth = await resolveAuth(kind, store, req);
      req.auth = auth;
      // A key counts as used by a request the service accepted: a refused one changes no row.
      if (auth.method === 'api_key' && store.keyUsed)
        res.once('finish', () => {
          if (res.statusCode < 400) store.keyUsed?.(auth.keyId);
        });
    } catch (err) {
      if (failures && err instanceof AppError && err.status === 401) {
        const wait = await failures.failed(ip);
        if (wait > 0) throw tooManyAuthFailures(wait);
      }
      throw err;
    }
    next();
  };
}

/** The authenticated caller of a guarded route. */
export function authOf(req: Request): Auth {
  if (!req.auth) throw new AppError('internal', 'route used without an auth guard');
  return req.auth;
}
