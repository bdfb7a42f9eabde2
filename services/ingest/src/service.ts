// The ingest service: stateless; authenticates producers, checks each item, commits it and enqueues it.
import type { IngestConfig } from '@evds/config';
import { createDb, poolStats } from '@evds/db';
import {
  createAuthFailureLimit,
  createHttpApp,
  createKeyUseNotes,
  createRateLimiter,
  healthHandler,
  listen,
  mountRoutes,
  type RunningServer,
} from '@evds/http';
import { createGroupCommit, createLookupCache, enqueueItems, ingestRoutes } from '@evds/ingest-core';
import {
  createHttpMetrics,
  createIngestMetrics,
  createRegistry,
  registerPoolGauges,
  startServiceMetrics,
  type MetricsServer,
} from '@evds/metrics';
import { createProducer, createRedis } from '@evds/queue';
import { createLogger, once, waitForBacking, type Service } from '@evds/runtime';
import { createSecretBox } from '@evds/secrets';
import { Router } from 'express';
import { sql } from 'kysely';

export interface IngestService extends Service {
  port(): number;
}

export function createIngestService(cfg: IngestConfig): IngestService {
  const logger = createLogger({ level: cfg.LOG_LEVEL, name: 'ingest' });
  const db = createDb({
    url: cfg.DATABASE_URL,
    poolSize: cfg.DB_POOL_SIZE,
    applicationName: 'evds-ingest',
    statementTimeoutMs: cfg.DB_STATEMENT_TIMEOUT_MS,
  });
  const redis = createRedis(cfg.REDIS_URL, { role: 'client', name: 'evds-ingest' });
  const producer = createProducer(redis, cfg.REDIS_PREFIX);
  const registry = createRegistry('ingest');
  registerPoolGauges(registry, () => poolStats(db));
  const limiter = createRateLimiter(redis, {
    prefix: `${cfg.REDIS_PREFIX}:rl`,
    limit: cfg.INGEST_RATE_LIMIT,
    windowSeconds: cfg.INGEST_RATE_WINDOW_SECONDS,
  });
  // Batches commit one at a time, on one connection of the named statements' pool (packages/db database.ts).
  const groupCommit = createGroupCommit(db, {
    maxBatch: 200,
    afterCommit: (items) => enqueueItems(producer, logger, items),
  });
  const lookups = createLookupCache({ db, redis, prefix: cfg.REDIS_PREFIX, maxEntries: 50_000 });
  const routes = ingestRoutes({
    db,
    groupCommit,
    lookups,
    producer,
    limiter,
    secrets: createSecretBox(cfg.ENCRYPTION_KEYS),
    logger,
    idempotencyTtlSeconds: cfg.IDEMPOTENCY_TTL_SECONDS,
    mailboxRetentionSeconds: cfg.MAILBOX_RETENTION_SECONDS,
    metrics: createIngestMetrics(registry),
  });

  const backing = { postgres: () => sql`select 1`.execute(db), redis: () => redis.ping() };
  const router = Router();
  router.get('/health', healthHandler(backing));
  router.use(
    mountRoutes(routes, {
      credentials: { ...lookups.credentials, keyUsed: createKeyUseNotes(db, logger) },
      bodyLimitBytes: cfg.BODY_LIMIT_BYTES,
      authFailures: createAuthFailureLimit(redis, {
        prefix: `${cfg.REDIS_PREFIX}:rl`,
        limit: cfg.AUTH_FAILURE_LIMIT,
        windowSeconds: cfg.AUTH_FAILURE_WINDOW_SECONDS,
        logger,
      }),
    }),
  );
  const app = createHttpApp({
    logger,
    dashboardOrigin: cfg.DASHBOARD_ORIGIN,
    trustProxy: cfg.TRUST_PROXY,
    routes: router,
    metrics: createHttpMetrics(registry),
  });

  let server: RunningServer | undefined;
  let metricsServer: MetricsServer | undefined;
  return {
    port: () => server?.port ?? 0,
    async start() {
      metricsServer = await startServiceMetrics(registry, cfg, backing, logger);
      await waitForBacking(backing, logger);
      server = await listen(app, cfg.PORT, cfg.HOST);
      logger.info({ port: server.port }, 'ingest listening');
    },
    destroy: once(async () => {
      await server?.close();
      await producer.close();
      await db.destroy();
      redis.disconnect();
      await metricsServer?.close();
    }),
  };
}
