import { probeAll, type BackingChecks } from '@evds/runtime';
import type { RequestHandler } from 'express';

/** GET /health: 200 when Postgres and Redis both answer, else 503 naming what is down. */
export function healthHandler(backing: BackingChecks): RequestHandler {
  return async (_req, res) => {
    const { ok, checks } = await probeAll({ ...backing });
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
