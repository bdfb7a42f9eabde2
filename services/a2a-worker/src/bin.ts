import { loadA2aWorkerConfig } from '@evds/config';
import { createLogger, runService } from '@evds/runtime';
import { createA2aWorker } from './service.ts';

const cfg = loadA2aWorkerConfig();
await runService(
  createA2aWorker(cfg),
  createLogger({ level: cfg.LOG_LEVEL, name: 'a2a-worker' }),
  cfg.SHUTDOWN_TIMEOUT_MS,
);
