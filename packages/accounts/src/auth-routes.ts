import {
  createSession,
  deleteSession,
  deleteUserSessions,
  findUserForLogin,
  getOrganization,
  getUser,
  type Db,
} from '@evds/db';
import { AppError, newId, newSessionToken, notFound, unixSeconds } from '@evds/domain';
import { defineRoute, type RateLimiter, type RouteDef, errorSchema } from '@evds/http';
import { z } from 'zod';
import { DUMMY_HASH, verifyPassword } from './passwords.ts';
import { orgSchema, orgView, userSchema, userView } from './views.ts';

export interface AuthRoutesDeps {
  db: Db;
  loginLimiter: RateLimiter;
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
      responses: { 403: { description: 'always', schema: errorSchema } },
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
        429: { description: 'more than 5 attempts in 15 minutes from this IP', schema: errorSchema },
      },
      // Every attempt counts, so the limit is taken before the body is even read.
      before: async (req, _res, next) => {
        const limit = await deps.loginLimiter.hit(`login:${req.ip ?? 'unknown'}`);
        if (!limit.allowed)
          throw new AppError('rate_limited', 'too many login attempts, please try again later', {
            'Retry-After': String(limit.retryAfterSeconds),
          });
        next();
      },
      handler: async ({ body }) => {
        const user = await findUserForLogin(db, body.email);
        const ok = await verifyPassword(body.password, user?.password_hash ?? DUMMY_HASH);
        if (!user || !ok) throw new AppError('unauthenticated', 'invalid email or password');
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
