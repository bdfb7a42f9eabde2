import { loadIngestConfig } from '@evds/config';
import { createLogger, runService } from '@evds/runtime';
import { createIngestService } from './service.ts';

const cfg = loadIngestConfig();
await runService(
  createIngestService(cfg),
  createLogger({ level: cfg.LOG_LEVEL, name: 'ingest' }),
  cfg.SHUTDOWN_TIMEOUT_MS,
);
