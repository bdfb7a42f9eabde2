import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { probeAll, type BackingChecks, type HealthReport, type Logger } from '@evds/runtime';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  /** GET /health: 200 when every dependency answers, 503 otherwise (readiness of the workers). */
  health?: () => Promise<HealthReport>;
}

/**
 * The metrics port of a service, apart from its public port (the gateway never routes to it):
 *   GET /metrics  Prometheus text format
 *   GET /health   Postgres and Redis reachability (200 or 503)
 *   GET /live     200 while the process answers at all (a liveness probe that no outage of a
 *                 dependency can fail, so an outage never restarts every replica at once)
 */
export async function startMetricsServer(
  registry: Registry,
  port: number,
  host: string,
  opts: MetricsServerOptions = {},
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json', JSON.stringify(body));
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method not allowed' });
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => send(200, registry.contentType, text),
        () => json(500, { error: 'metrics collection failed' }),
      );
      return;
    }
    if (path === '/live') return json(200, { status: 'ok' });
    if (path === '/health' && opts.health) {
      opts.health().then(
        (r) => json(r.ok ? 200 : 503, { status: r.ok ? 'ok' : 'unavailable', checks: r.checks }),
        () => json(503, { status: 'unavailable' }),
      );
      return;
    }
    json(404, { error: 'not found' });
  });
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  let closing: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      })),
  };
}

/**
 * The metrics server of a service, whose /health reports its Postgres and Redis, or what the service's
 * own report says (the API's names its read replica too).
 */
export async function startServiceMetrics(
  registry: Registry,
  cfg: { METRICS_PORT: number; METRICS_HOST: string },
  health: BackingChecks | (() => Promise<HealthReport>),
  logger: Logger,
): Promise<MetricsServer> {
  const server = await startMetricsServer(registry, cfg.METRICS_PORT, cfg.METRICS_HOST, {
    health: typeof health === 'function' ? health : () => probeAll({ ...health }),
  });
  logger.info({ port: server.port }, 'metrics listening');
  return server;
}
