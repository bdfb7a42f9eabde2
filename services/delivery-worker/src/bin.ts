import { loadWorkerConfig } from '@evds/config';
import { createLogger, runService } from '@evds/runtime';
import { createDeliveryWorker } from './service.ts';

const cfg = loadWorkerConfig();
await runService(
  createDeliveryWorker(cfg),
  createLogger({ level: cfg.LOG_LEVEL, name: 'delivery-worker' }),
  cfg.SHUTDOWN_TIMEOUT_MS,
);
