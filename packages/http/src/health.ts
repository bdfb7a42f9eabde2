import { probeAll, type BackingChecks, type HealthReport } from '@evds/runtime';
import type { RequestHandler } from 'express';

/** GET /health: 200 when Postgres and Redis both answer, else 503 naming what is down. */
export const healthHandler = (backing: BackingChecks): RequestHandler =>
  healthReportHandler(() => probeAll({ ...backing }));

/** GET /health from a report of the service's own: 200 when it is ok, else 503 naming what is down. */
export function healthReportHandler(report: () => Promise<HealthReport>): RequestHandler {
  return async (_req, res) => {
    const { ok, checks } = await report();
    if (ok) {
      res.json({ status: 'ok', checks });
      return;
    }
    const down = Object.keys(checks).filter((k) => checks[k] === 'down');
    res
      .status(503)
      .set('Retry-After', '5')
      .json({
        status: 'unavailable',
        error: `${down.join(' and ')} unavailable`,
        code: 'unavailable',
        checks,
      });
  };
}
