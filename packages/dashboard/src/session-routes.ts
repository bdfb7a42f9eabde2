// The back end's own routes under /app: sign in and out (the token goes into the cookie, never into a
// body), the signed-in user, the page's configuration and the local inbox of development.
import { jsonBody } from '@evds/http';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { jsonOf, type ApiClient } from './api-client.ts';
import type { SessionCookie } from './cookie.ts';
import { DashboardError, notSignedIn } from './errors.ts';
import { send } from './forward.ts';
import type { InboxClient } from './inbox.ts';

export interface AppRouteDeps {
  api: ApiClient;
  cookie: SessionCookie;
  bodyLimitBytes: number;
  environment: 'development' | 'test' | 'production';
  inbox?: { client: InboxClient; url: string };
}

interface LoginAnswer {
  session_token: string;
  expires_at: number;
  user: { id: string; email: string; name: string; org_id?: string };
}

const isLogin = (v: unknown): v is LoginAnswer => {
  const a = v as Partial<LoginAnswer> | undefined;
  return typeof a?.session_token === 'string' && typeof a.expires_at === 'number' && !!a.user;
};

/** 405 for a known /app path with another method, naming the ones it has. */
const only =
  (...methods: string[]): RequestHandler =>
  (_req, res, next) => {
    res.setHeader('Allow', methods.join(', '));
    next(new DashboardError(405, 'method_not_allowed', `this route answers ${methods.join(', ')} only`));
  };

export function appRoutes(deps: AppRouteDeps): Router {
  const { api, cookie } = deps;
  const body = jsonBody(deps.bodyLimitBytes);
  const router = Router();

  /** The cookie's session, checked by the API: 401 (and the cookie cleared) when there is none. */
  const signedIn = async (req: Request, res: Response): Promise<string> => {
    const token = cookie.read(req);
    const answer = token ? await api.call(req, { method: 'GET', path: '/api/v1/auth/me', token }) : undefined;
    if (!token || answer?.status === 401) {
      cookie.clear(res);
      throw notSignedIn();
    }
    if (answer && answer.status !== 200)
      throw new DashboardError(503, 'unavailable', 'could not check the session');
    return token;
  };

  router
    .route('/app/login')
    .post(...body, async (req, res) => {
      const answer = await api.call(req, {
        method: 'POST',
        path: '/api/v1/auth/login',
        body: req.rawBody,
        contentType: 'application/json',
      });
      const login = jsonOf(answer);
      if (answer.status !== 200 || !isLogin(login)) return send(res, answer);
      cookie.set(res, login.session_token, login.expires_at);
      const { id, email, name, org_id } = login.user;
      res.json({ user: { id, email, name }, org_id, expires_at: login.expires_at });
    })
    .all(only('POST'));

  for (const [route, apiPath] of [
    ['/app/logout', '/api/v1/auth/logout'],
    ['/app/logout-all', '/api/v1/auth/logout-all'],
  ] as const)
    router
      .route(route)
      .post(...body, async (req, res) => {
        const token = cookie.read(req);
        const answer = token ? await api.call(req, { method: 'POST', path: apiPath, token }) : undefined;
        // A dead session is signed out already; any other failure keeps the cookie, so the user can
        // retry rather than believe a session is ended that still works.
        if (answer && answer.status !== 200 && answer.status !== 401) return send(res, answer);
        cookie.clear(res);
        res.json({ signed_out: true });
      })
      .all(only('POST'));

  router
    .route('/app/me')
    .get(async (req, res) => {
      const token = cookie.read(req);
      if (!token) {
        cookie.clear(res);
        throw notSignedIn();
      }
      const answer = await api.call(req, { method: 'GET', path: '/api/v1/auth/me', token });
      if (answer.status === 401) cookie.clear(res);
      send(res, answer);
    })
    .all(only('GET', 'HEAD'));

  router
    .route('/app/config')
    .get((_req, res) => {
      res.json({
        inbox: deps.inbox !== undefined,
        inbox_url: deps.inbox?.url ?? null,
        environment: deps.environment,
      });
    })
    .all(only('GET', 'HEAD'));

  const inbox = (): InboxClient => {
    if (!deps.inbox) throw new DashboardError(404, 'not_found', 'no local inbox is configured');
    return deps.inbox.client;
  };
  const inboxDown = () =>
    new DashboardError(503, 'unavailable', 'the local inbox is not answering', { 'Retry-After': '5' });
  router
    .route('/app/inbox')
    .get(async (req, res) => {
      const client = inbox();
      await signedIn(req, res);
      res.json(await client.list().catch(() => Promise.reject(inboxDown())));
    })
    .delete(...body, async (req, res) => {
      const client = inbox();
      await signedIn(req, res);
      await client.clear().catch(() => Promise.reject(inboxDown()));
      res.json({ cleared: true });
    })
    .all(only('GET', 'HEAD', 'DELETE'));

  return router;
}
