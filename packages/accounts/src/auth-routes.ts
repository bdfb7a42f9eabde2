import {
  createSession,
  deleteSession,
  deleteUserSessions,
  findUserForLogin,
  getOrganization,
  getUser,
  updatePasswordHash,
  type Db,
  type User,
} from '@evds/db';
import { AppError, newId, newSessionToken, notFound, unixSeconds } from '@evds/domain';
import { defineRoute, type RouteDef, errorSchema } from '@evds/http';
import { z } from 'zod';
import { loginAccountLimit, loginAddressLimit, signupLimit, type AuthLimiters } from './auth-limits.ts';
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { orgSchema, orgView, userSchema, userView } from './views.ts';

export interface AuthRoutesDeps extends AuthLimiters {
  db: Db;
  sessionTtlSeconds: number;
  sessionsPerUser: number;
}

const loginBody = z.strictObject({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});

export { errorSchema };

export function authRoutes(deps: AuthRoutesDeps): RouteDef[] {
  const { db } = deps;
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/signup',
      auth: 'P',
      tag: 'auth',
      summary: 'Disabled: workspaces are provisioned by the operator',
      responses: {
        403: { description: 'always', schema: errorSchema },
        429: { description: 'more than 3 calls in 15 minutes from this IP', schema: errorSchema },
      },
      before: signupLimit(deps),
      handler: () =>
        Promise.reject(
          new AppError('forbidden', 'signup is disabled: workspaces are provisioned by the service operator'),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/login',
      auth: 'P',
      tag: 'auth',
      summary: 'Exchange email and password for a session token (7 days)',
      body: loginBody,
      responses: {
        200: {
          description: 'logged in',
          schema: z.object({ session_token: z.string(), expires_at: z.number().int(), user: userSchema }),
        },
        401: { description: 'wrong email or password', schema: errorSchema },
        429: {
          description:
            'more than 5 attempts in 15 minutes from this IP, or too many from its IPv6 /64 or for this account',
          schema: errorSchema,
        },
        503: {
          description:
            'too many logins waiting for a password check in this process (unavailable); Retry-After',
          schema: errorSchema,
        },
      },
      before: loginAddressLimit(deps),
      handler: async ({ body }) => {
        await loginAccountLimit(deps, body.email);
        const user = await findUserForLogin(db, body.email);
        const ok = await verifyPassword(body.password, user?.password_hash ?? DUMMY_HASH);
        if (!user || !ok) throw new AppError('unauthenticated', 'invalid email or password');
        await upgradeHash(db, user, body.password);
        const { token, hash } = newSessionToken();
        const expiresAt = new Date(Date.now() + deps.sessionTtlSeconds * 1000);
        await createSession(
          db,
          { id: newId(), token_hash: hash, user_id: user.id, org_id: user.org_id, expires_at: expiresAt },
          deps.sessionsPerUser,
        );
        return { body: { session_token: token, expires_at: unixSeconds(expiresAt), user: userView(user) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/logout',
      auth: 'S',
      tag: 'auth',
      summary: 'Revoke the current session',
      responses: { 200: { description: 'revoked', schema: z.object({ logged_out: z.literal(true) }) } },
      handler: async ({ auth }) => {
        if (auth.method === 'session') await deleteSession(db, auth.sessionId);
        return { body: { logged_out: true } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/logout-all',
      auth: 'S',
      tag: 'auth',
      summary: 'Revoke every session of the current user',
      responses: {
        200: { description: 'revoked', schema: z.object({ revoked_sessions: z.number().int() }) },
      },
      handler: async ({ auth }) => ({
        body: { revoked_sessions: await deleteUserSessions(db, auth.userId ?? '') },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/auth/me',
      auth: 'KS',
      tag: 'auth',
      summary: 'The caller: user (null for a key whose creator is gone), organization and credential',
      responses: {
        200: {
          description: 'the caller',
          schema: z.object({
            user: userSchema.nullable(),
            org: orgSchema,
            auth: z.object({ method: z.enum(['session', 'api_key']), key_id: z.string().optional() }),
          }),
        },
      },
      handler: async ({ auth }) => {
        const [org, user] = await Promise.all([
          getOrganization(db, auth.orgId),
          auth.userId ? getUser(db, auth.orgId, auth.userId) : undefined,
        ]);
        if (!org) throw notFound('organization');
        return {
          body: {
            user: user ? userView(user) : null,
            org: orgView(org),
            auth:
              auth.method === 'api_key' ? { method: 'api_key', key_id: auth.keyId } : { method: 'session' },
          },
        };
      },
    }),
  ];
}

/** Stores a hash under today's parameters once the password is known good, if the stored one is older. */
async function upgradeHash(db: Db, user: User, password: string): Promise<void> {
  if (!needsRehash(user.password_hash)) return;
  let to: string;
  try {
    to = await hashPassword(password);
  } catch (err) {
    // The password was good, so the session is owed; the old hash waits for a calmer login.
    if (err instanceof AppError && err.code === 'unavailable') return;
    throw err;
  }
  await updatePasswordHash(db, user.org_id, user.id, { from: user.password_hash, to });
}
