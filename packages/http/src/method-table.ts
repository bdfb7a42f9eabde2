import { Router, type Request, type Response } from 'express';

/** What express's router (router@2.3+) reports of itself: its routes and the routers mounted on it. */
interface ListedRoute {
  path: string | RegExp;
  methods?: string[];
  router?: unknown;
}
interface Listable {
  listRoutes(): ListedRoute[];
}

const isListable = (r: unknown): r is Listable =>
  typeof (r as Partial<Listable> | null)?.listRoutes === 'function';

/** The methods a path answers, as `Allow` lists them: sorted, HEAD with GET, OPTIONS always. */
export interface MethodTable {
  /** Resolves [] for a path no route serves; rejects as routing would (a malformed %-escape). */
  allowed: (req: Request, res: Response) => Promise<string[]>;
  /** What `allowed` last found for this request, if it ran. */
  found: (req: Request) => string[] | undefined;
}

function join(prefix: string, path: string | RegExp): string {
  if (typeof path !== 'string')
    throw new Error('the method table supports string route paths only, not regular expressions');
  if (prefix === '' || prefix === '/') return path;
  return path === '/' ? prefix : `${prefix.replace(/\/$/, '')}${path}`;
}

/** Every route of `router` and of the routers mounted on it, with its full path. */
function flatten(router: Listable, prefix: string): { path: string; methods: string[] }[] {
  return router.listRoutes().flatMap((r) => {
    const path = join(prefix, r.path);
    if (r.router !== undefined) {
      if (!isListable(r.router)) throw new Error(`the router mounted at ${path} cannot list its routes`);
      return flatten(r.router, path);
    }
    const methods = r.methods ?? [];
    // `.all()` would answer every method itself: no Allow list or 405 could be right for it.
    if (methods.includes('*')) throw new Error(`${path} is served by .all(), which the method table refuses`);
    return [{ path, methods }];
  });
}

/**
 * Which methods the app's routes serve on a request's path. Matching is left to an express router of its
 * own, one catch-all route per route path, so a path counts as known exactly when express would match
 * it (same case and trailing-slash rules, same parameter decoding). Read from `routes` on first use, by
 * which time the services have mounted everything. Only OPTIONS and requests no route answered ask it.
 */
export function createMethodTable(routes: Router): MethodTable {
  if (!isListable(routes))
    throw new Error('express router without listRoutes(): router@2.3 or later is needed');
  // Read once now as well, so a route shape the table cannot handle stops the service at start.
  flatten(routes, '');
  const seen = new WeakMap<Request, Set<string>>();
  const results = new WeakMap<Request, string[]>();
  let probe: Router | undefined;

  const build = (): Router => {
    const r = Router();
    for (const route of flatten(routes, '')) {
      r.all(route.path, (req, _res, next) => {
        for (const m of route.methods) seen.get(req)?.add(m);
        next();
      });
    }
    return r;
  };

  return {
    allowed: (req, res) =>
      new Promise<string[]>((resolve, reject) => {
        const methods = new Set<string>();
        seen.set(req, methods);
        (probe ??= build())(req, res, (err?: unknown) => {
          seen.delete(req);
          if (err !== undefined && err !== 'route' && err !== 'router') {
            reject(err instanceof Error ? err : new Error('routing failed while listing allowed methods'));
            return;
          }
          if (methods.size > 0) methods.add('OPTIONS');
          const list = [...methods].sort();
          results.set(req, list);
          resolve(list);
        });
      }),
    found: (req) => results.get(req),
  };
}
