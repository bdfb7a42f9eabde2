import { AppError } from '@evds/domain';
import type { RequestHandler } from 'express';
import type { MethodTable } from './method-table.ts';

/**
 * Every OPTIONS request, before CORS and the routes, so that none reaches express's automatic text/plain
 * answer. An unknown path is the JSON 404 any method gets. From the dashboard origin, the CORS middleware
 * next answers 204 with its grant (for the path's own methods). A preflight from any other origin, or
 * from anywhere when no dashboard origin is configured, is refused with 403 JSON and no grant: a browser
 * would refuse the exchange anyway, and a JSON answer says why to whoever is debugging it. A plain
 * OPTIONS (no Access-Control-Request-Method) is a client asking what the path serves: 204 with `Allow`,
 * no body, as RFC 9110 describes it; no credential is needed, the OpenAPI document is public as well.
 */
export function answerOptions(table: MethodTable, dashboardOrigin: string): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'OPTIONS') return next();
    // The answer depends on the Origin header: a cache must not hand one origin's answer to another.
    res.vary('Origin');
    const methods = await table.allowed(req, res);
    if (methods.length === 0) throw new AppError('not_found', 'route not found');
    const origin = req.headers.origin;
    if (dashboardOrigin !== '' && origin === dashboardOrigin) {
      res.set('Allow', methods.join(', '));
      return next();
    }
    if (origin !== undefined && req.headers['access-control-request-method'] !== undefined)
      throw new AppError('cors_refused', 'cross-origin requests are only allowed from the dashboard origin');
    res.status(204).set('Allow', methods.join(', ')).end();
  };
}

/**
 * After the routes: a request no route answered on a path some route serves used a method the path
 * lacks (PUT anywhere, HEAD or GET where there is only POST...): 405 naming the allowed methods, rather
 * than a 404 that would wrongly say the path does not exist. Unknown paths go on to the 404.
 */
export function refuseOtherMethods(table: MethodTable): RequestHandler {
  return async (req, res, next) => {
    const methods = await table.allowed(req, res);
    if (methods.length === 0) return next();
    const allow = methods.join(', ');
    throw new AppError('method_not_allowed', `${req.method} is not allowed here; allowed: ${allow}`, {
      Allow: allow,
    });
  };
}
