// Security headers of the dashboard's answers. Pages run under a strict CSP of their own (self only,
// no inline script or style, no framing); JSON answers and assets get an even stricter one.
import type { RequestHandler, Response } from 'express';

export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** For anything that is not a page: nothing may load from it, nothing may frame it. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * On every answer. HSTS only in production: development serves plain http://localhost, where a
 * pinned HSTS entry would break every other local service on that host name.
 */
export function securityHeaders(production: boolean): RequestHandler {
  const fixed: [string, string][] = [
    ['Content-Security-Policy', NON_PAGE_CSP],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    [
      'Permissions-Policy',
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    ],
    ['Cache-Control', 'no-store'],
  ];
  if (production) fixed.push(['Strict-Transport-Security', 'max-age=63072000; includeSubDomains']);
  return (_req, res, next) => {
    for (const [name, value] of fixed) res.setHeader(name, value);
    next();
  };
}

/** index.html: the page's CSP, and never cached (a new release must load its new asset names). */
export function asPage(res: Response): void {
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('Cache-Control', 'no-store');
}
