// The built web app: hashed assets cached for a year, index.html never cached, and index.html for every
// page path the browser navigates to (the app routes on its side). /app and /api paths never fall
// back to the page: a wrong call gets a JSON 404, not HTML.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { asPage } from './headers.ts';

const NOT_BUILT =
  'the web app is not built: run `pnpm --filter @evds/dashboard-web build` (it writes packages/dashboard-web/dist)';

/** No inline style or script: the page's CSP allows neither, and this page runs under it too. */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><main><h1>The dashboard's web app is not built</h1>
<p>Run <code>pnpm --filter @evds/dashboard-web build</code>, which writes
<code>packages/dashboard-web/dist</code>, then reload this page.</p></main></body>
</html>
`;

const BACK_END = /^\/(app|api)(\/|$)/i;
const ASSETS = /^\/assets(\/|$)/i;

const wantsHtml = (req: Request): boolean => (req.accepts(['json', 'html']) || 'json') === 'html';

export function pageRoutes(staticDir: string): Router {
  const root = resolve(staticDir);
  const index = join(root, 'index.html');
  const router = Router();

  const notBuilt = (req: Request, res: Response) => {
    res.status(503).setHeader('Retry-After', '30');
    if (!wantsHtml(req)) return res.json({ error: NOT_BUILT, code: 'unavailable' });
    asPage(res);
    res.type('html').send(NOT_BUILT_PAGE);
  };

  router.use(
    express.static(root, {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      fallthrough: true,
      setHeaders(res, path) {
        if (path.endsWith('.html')) asPage(res);
        else if (path.startsWith(join(root, 'assets')))
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        else res.setHeader('Cache-Control', 'no-cache');
      },
    }),
  );

  router.get('/{*page}', (req, res, next) => {
    if (BACK_END.test(req.path) || ASSETS.test(req.path) || !wantsHtml(req)) return next();
    if (!existsSync(index)) return notBuilt(req, res);
    asPage(res);
    res.sendFile(index, { dotfiles: 'deny' }, (err?: Error) => {
      if (err && !res.headersSent) next(err);
    });
  });

  // A JSON caller (or a missing asset) on a page path: say why when nothing is built at all.
  router.get('/{*page}', (req, res, next) => {
    if (!BACK_END.test(req.path) && !existsSync(index)) return notBuilt(req, res);
    next();
  });
  return router;
}
