// State-changing requests must come from the dashboard's own page: they carry X-Requested-With (which a
// form cannot send, and which another origin can send only after a CORS preflight this origin never
// grants), and neither Origin nor Sec-Fetch-Site says another site sent them. SameSite=Strict already
// keeps the cookie off cross-site requests; this also refuses login CSRF and sibling-subdomain posts.
import type { Request, RequestHandler } from 'express';
import { csrfRefused } from './errors.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `publicOrigin`: the dashboard's origin as browsers write it; empty (development and tests only) means
 * the origin the request itself names (its scheme and Host).
 */
export function csrfGuard(publicOrigin: string): RequestHandler {
  const ownOrigin = (req: Request) => publicOrigin || `${req.protocol}://${req.headers.host ?? ''}`;
  return (req, _res, next) => {
    if (SAFE.has(req.method)) return next();
    const fetchSite = req.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site')
      return next(csrfRefused(`Sec-Fetch-Site is ${fetchSite}`));
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== ownOrigin(req))
      return next(csrfRefused('the Origin is not the dashboard'));
    const marker = req.headers['x-requested-with'];
    if (typeof marker !== 'string' || marker.trim() === '')
      return next(csrfRefused('state-changing requests must carry X-Requested-With'));
    next();
  };
}
