// The dashboard: the built web app and its same-origin back end, in front of the API. It holds no
// state and opens no database or Redis connection; its readiness is the API answering and the web app
// being built.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { DashboardConfig } from '@evds/config';
import { createApiClient, createDashboardApp, createInboxClient } from '@evds/dashboard-core';
import { listen, type RunningServer } from '@evds/http';
import { createHttpMetrics, createRegistry, startMetricsServer, type MetricsServer } from '@evds/metrics';
import { createLogger, once, probeAll, type Service } from '@evds/runtime';

export interface DashboardService extends Service {
  /** The port actually listened on (useful with PORT=0). */
  port(): number;
}

export function createDashboardService(cfg: DashboardConfig): DashboardService {
  const logger = createLogger({ level: cfg.LOG_LEVEL, name: 'dashboard' });
  const registry = createRegistry('dashboard');
  const api = createApiClient({ baseUrl: cfg.API_URL, timeoutMs: cfg.API_TIMEOUT_MS });
  const inbox = cfg.LOCAL_INBOX_CONTROL_URL
    ? { client: createInboxClient(cfg.LOCAL_INBOX_CONTROL_URL, logger), url: cfg.LOCAL_INBOX_URL }
    : undefined;
  const app = createDashboardApp({
    logger,
    metrics: createHttpMetrics(registry),
    api,
    environment: cfg.NODE_ENV,
    publicOrigin: cfg.DASHBOARD_PUBLIC_ORIGIN,
    trustProxy: cfg.TRUST_PROXY,
    staticDir: cfg.DASHBOARD_STATIC_DIR,
    bodyLimitBytes: cfg.BODY_LIMIT_BYTES,
    inbox,
  });
  const readiness = {
    api: () => api.healthy(),
    web_app: () => access(join(cfg.DASHBOARD_STATIC_DIR, 'index.html')),
  };

  let server: RunningServer | undefined;
  let metricsServer: MetricsServer | undefined;
  return {
    port: () => server?.port ?? 0,
    async start() {
      metricsServer = await startMetricsServer(registry, cfg.METRICS_PORT, cfg.METRICS_HOST, {
        health: () => probeAll(readiness),
      });
      logger.info({ port: metricsServer.port }, 'metrics listening');
      // Pages are served whether or not the API answers yet: they say so themselves.
      if (inbox) logger.info({ inbox: cfg.LOCAL_INBOX_URL }, 'local inbox configured');
      server = await listen(app, cfg.PORT, cfg.HOST);
      logger.info({ port: server.port }, 'dashboard listening');
    },
    destroy: once(async () => {
      await server?.close();
      await metricsServer?.close();
    }),
  };
}
