import { loadDashboardConfig } from '@evds/config';
import { createLogger, runService } from '@evds/runtime';
import { createDashboardService } from './service.ts';

const cfg = loadDashboardConfig();
await runService(
  createDashboardService(cfg),
  createLogger({ level: cfg.LOG_LEVEL, name: 'dashboard' }),
  cfg.SHUTDOWN_TIMEOUT_MS,
);
