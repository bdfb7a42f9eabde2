// The session cookie: the only place the session token lives on the browser's side. HttpOnly keeps it
// from the page's script, SameSite=Strict from every cross-site request, Path=/ covers /app and /api.
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'evds_session';

// A token is sent on as a header value: anything outside this alphabet is not one of ours.
const TOKEN = /^[A-Za-z0-9._~-]{1,512}$/;

export interface SessionCookie {
  /** Sets the cookie to expire with the session (`expiresAt` in Unix seconds). */
  set(res: Response, token: string, expiresAt: number): void;
  clear(res: Response): void;
  /** The token the browser sent, if it sent one that can be a token. */
  read(req: Request): string | undefined;
}

/** `secure`: add the Secure attribute (everywhere but local development and tests, which use http). */
export function sessionCookie(secure: boolean): SessionCookie {
  const attributes = `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return {
    set(res, token, expiresAt) {
      const maxAge = Math.max(0, Math.floor(expiresAt - Date.now() / 1000));
      const expires = new Date(expiresAt * 1000).toUTCString();
      res.append(
        'Set-Cookie',
        `${SESSION_COOKIE}=${token}; ${attributes}; Max-Age=${maxAge}; Expires=${expires}`,
      );
    },
    clear(res) {
      res.append(
        'Set-Cookie',
        `${SESSION_COOKIE}=; ${attributes}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
      );
    },
    read(req) {
      for (const part of (req.headers.cookie ?? '').split(';')) {
        const at = part.indexOf('=');
        if (at < 0 || part.slice(0, at).trim() !== SESSION_COOKIE) continue;
        const value = part.slice(at + 1).trim();
        if (TOKEN.test(value)) return value;
      }
      return undefined;
    },
  };
}
