import type { HttpMetrics } from '@evds/metrics';
import type { RequestHandler, Response } from 'express';

const STARTED = Symbol('evds.http.started');
type Timed = Response & { [STARTED]?: number };

/**
 * Counts and times every answered request by its route's path template (express's matched route,
 * which is the RouteDef path), never by the raw URL. One listener function per app, not per request.
 */
export function requestMetrics(
  metrics: HttpMetrics,
  /** The label of an answer no route gave (the dashboard's static files name themselves "static"). */
  unrouted: (statusCode: number) => string = () => 'unmatched',
): RequestHandler {
  function finished(this: Timed) {
    const route = (this.req.route as { path?: unknown } | undefined)?.path;
    metrics.observe(
      typeof route === 'string' ? route : unrouted(this.statusCode),
      this.req.method,
      this.statusCode,
      (performance.now() - (this[STARTED] ?? 0)) / 1000,
    );
  }
  return (_req, res: Timed, next) => {
    res[STARTED] = performance.now();
    // 'finish' fires once per response; `on` stores the function itself where `once` would wrap it.
    res.on('finish', finished);
    next();
  };
}
