// The webhook delivery worker: consumes the webhook queue and runs the maintenance schedulers.
import { createPaymentProcessor, runBillingMoves } from '@evds/billing';
import { outboundDns, type WorkerConfig } from '@evds/config';
import { createDb, poolStats } from '@evds/db';
import {
  createAdmission,
  createItemConsumer,
  createMaintenance,
  createProcessor,
  createRecoveryWorker,
  webhookSender,
} from '@evds/delivery';
import { countOpenCircuits, createFlow, flowLimits } from '@evds/flow';
import {
  createDeliveryMetrics,
  createRegistry,
  registerCircuitGauge,
  registerPoolGauges,
  registerQueueGauges,
  startServiceMetrics,
  type MetricsServer,
} from '@evds/metrics';
import { createGuardedDispatcher, createNetPolicy } from '@evds/netguard';
import { bumpCacheGeneration, catalog, createProducer, createRedis, queueCounts } from '@evds/queue';
import { createLogger, once, waitForBacking, type Service } from '@evds/runtime';
import { createSecretBox } from '@evds/secrets';
import { sql } from 'kysely';

export function createDeliveryWorker(cfg: WorkerConfig): Service {
  const logger = createLogger({ level: cfg.LOG_LEVEL, name: 'delivery-worker' });
  const db = createDb({
    url: cfg.DATABASE_URL,
    poolSize: cfg.DB_POOL_SIZE,
    applicationName: 'evds-delivery',
  });
  const redis = createRedis(cfg.REDIS_URL, { role: 'worker', name: 'evds-delivery' });
  const producerRedis = createRedis(cfg.REDIS_URL, { role: 'client', name: 'evds-delivery-producer' });
  const producer = createProducer(producerRedis, cfg.REDIS_PREFIX);
  const registry = createRegistry('delivery-worker');
  const metrics = createDeliveryMetrics(registry);
  registerPoolGauges(registry, () => poolStats(db));
  // The delivery worker reports the deployment-wide count (one series, not one per worker kind).
  registerCircuitGauge(registry, () => countOpenCircuits(producerRedis, cfg.REDIS_PREFIX));
  registerQueueGauges(registry, async () => {
    const [webhook, maintenance] = await Promise.all([
      queueCounts(producer, producerRedis, 'webhook'),
      queueCounts(producer, producerRedis, 'maintenance'),
    ]);
    return { [catalog.webhook.queue]: webhook, [catalog.maintenance.queue]: maintenance };
  });
  const dispatcher = createGuardedDispatcher(
    createNetPolicy({
      allowCidrs: cfg.NETGUARD_ALLOW_CIDRS,
      testHosts: cfg.NETGUARD_TEST_HOSTS,
      dns: outboundDns(cfg),
      onNameRefused: (refusal) => logger.warn(refusal, 'network policy refused a host name'),
    }),
    { connections: cfg.DELIVERY_CONCURRENCY, connectTimeoutMs: cfg.DELIVERY_CONNECT_TIMEOUT_MS },
  );
  const processItem = createProcessor({
    db,
    producer,
    secrets: createSecretBox(cfg.ENCRYPTION_KEYS),
    logger,
    retryDelaysMs: cfg.RETRY_DELAYS_MS,
    queue: 'webhook',
    send: webhookSender({ dispatcher, timeoutMs: cfg.DELIVERY_TIMEOUT_MS }),
    metrics,
    admission: createAdmission({
      flow: createFlow(producerRedis, cfg.REDIS_PREFIX, flowLimits(cfg)),
      kind: 'webhook',
      producer,
      logger,
      metrics,
    }),
    concurrency: cfg.DELIVERY_CONCURRENCY,
  });
  const worker = createItemConsumer('webhook', processItem, {
    redis,
    prefix: cfg.REDIS_PREFIX,
    concurrency: cfg.DELIVERY_CONCURRENCY,
    lockMs: cfg.WORKER_LOCK_MS,
    logger,
  });
  const recoveryWorker = createRecoveryWorker({
    db,
    producer,
    logger,
    ratePerSecond: cfg.RECOVERY_RATE_PER_SECOND,
    redis,
    prefix: cfg.REDIS_PREFIX,
    lockMs: cfg.WORKER_LOCK_MS,
  });
  const maintenance = createMaintenance({
    db,
    producer,
    redis,
    prefix: cfg.REDIS_PREFIX,
    logger,
    sweepIntervalMs: cfg.SWEEP_INTERVAL_MS,
    sweepGraceMs: cfg.SWEEP_GRACE_MS,
    maintenanceIntervalMs: cfg.MAINTENANCE_INTERVAL_MS,
    payloadRetentionSeconds: cfg.PAYLOAD_RETENTION_SECONDS,
    eventRetentionSeconds: cfg.EVENT_RETENTION_SECONDS,
    autoDisableAfterSeconds: cfg.AUTO_DISABLE_AFTER_SECONDS,
    onTargetsDisabled: () => bumpCacheGeneration(producerRedis, cfg.REDIS_PREFIX),
    metrics,
    billing: cfg.BILLING_ENABLED
      ? {
          run: (now) =>
            runBillingMoves(
              {
                db,
                processor: createPaymentProcessor({ enabled: true }),
                graceSeconds: cfg.BILLING_GRACE_SECONDS,
                logger,
                onMoved: () => bumpCacheGeneration(producerRedis, cfg.REDIS_PREFIX),
              },
              now,
            ),
        }
      : undefined,
  });

  const backing = { postgres: () => sql`select 1`.execute(db), redis: () => producerRedis.ping() };
  let metricsServer: MetricsServer | undefined;
  return {
    async start() {
      metricsServer = await startServiceMetrics(registry, cfg, backing, logger);
      await waitForBacking(backing, logger);
      await maintenance.start();
      void worker.run();
      void recoveryWorker.run();
      logger.info({ concurrency: cfg.DELIVERY_CONCURRENCY }, 'delivery worker consuming');
    },
    destroy: once(async () => {
      await worker.close();
      await recoveryWorker.close();
      await maintenance.close();
      await producer.close();
      await dispatcher.destroy();
      await db.destroy();
      redis.disconnect();
      producerRedis.disconnect();
      await metricsServer?.close();
    }),
  };
}
