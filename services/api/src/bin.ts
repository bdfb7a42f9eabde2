import { loadApiConfig } from '@evds/config';
import { createLogger, runService } from '@evds/runtime';
import { createApiService } from './service.ts';

const cfg = loadApiConfig();
await runService(
  createApiService(cfg),
  createLogger({ level: cfg.LOG_LEVEL, name: 'api' }),
  cfg.SHUTDOWN_TIMEOUT_MS,
);
