// The a2a worker: consumes the a2a queue and hands each item to its target's agent (A2A v1.0
// SendMessage) through the shared processor: same attempts, retry schedule, EXPIRED and replay as
// webhooks. Maintenance (sweeper, retention) runs in the delivery worker and covers a2a items too.
import { a2aSender, createDiscovery, createNotFoundRefresher } from '@evds/a2a';
import { outboundDns, type WorkerConfig } from '@evds/config';
import { createDb, poolStats } from '@evds/db';
import { createAdmission, createItemConsumer, createProcessor } from '@evds/delivery';
import { createFlow, flowLimits } from '@evds/flow';
import {
  createDeliveryMetrics,
  createRegistry,
  registerPoolGauges,
  registerQueueGauges,
  startServiceMetrics,
  type MetricsServer,
} from '@evds/metrics';
import { createGuardedAgent, createGuardedDispatcher, createNetPolicy } from '@evds/netguard';
import { catalog, createProducer, createRedis, queueCounts } from '@evds/queue';
import { createLogger, once, waitForBacking, type Service } from '@evds/runtime';
import { createSecretBox } from '@evds/secrets';
import { sql } from 'kysely';

export function createA2aWorker(cfg: WorkerConfig): Service {
  const logger = createLogger({ level: cfg.LOG_LEVEL, name: 'a2a-worker' });
  const db = createDb({ url: cfg.DATABASE_URL, poolSize: cfg.DB_POOL_SIZE, applicationName: 'evds-a2a' });
  const redis = createRedis(cfg.REDIS_URL, { role: 'worker', name: 'evds-a2a' });
  const producerRedis = createRedis(cfg.REDIS_URL, { role: 'client', name: 'evds-a2a-producer' });
  const producer = createProducer(producerRedis, cfg.REDIS_PREFIX);
  const registry = createRegistry('a2a-worker');
  const metrics = createDeliveryMetrics(registry);
  registerPoolGauges(registry, () => poolStats(db));
  registerQueueGauges(registry, async () => ({
    [catalog.a2a.queue]: await queueCounts(producer, producerRedis, 'a2a'),
  }));
  const policy = createNetPolicy({
    allowCidrs: cfg.NETGUARD_ALLOW_CIDRS,
    testHosts: cfg.NETGUARD_TEST_HOSTS,
    dns: outboundDns(cfg),
    onNameRefused: (refusal) => logger.warn(refusal, 'network policy refused a host name'),
  });
  const dispatcher = createGuardedDispatcher(policy, {
    connections: cfg.DELIVERY_CONCURRENCY,
    connectTimeoutMs: cfg.DELIVERY_CONNECT_TIMEOUT_MS,
  });
  const cardAgent = createGuardedAgent(policy, { keepAlive: false });
  const discover = createDiscovery({ agent: cardAgent, checkUrl: policy.checkUrl });
  const processItem = createProcessor({
    db,
    producer,
    secrets: createSecretBox(cfg.ENCRYPTION_KEYS),
    logger,
    retryDelaysMs: cfg.RETRY_DELAYS_MS,
    queue: 'a2a',
    send: a2aSender({
      dispatcher,
      timeoutMs: cfg.DELIVERY_TIMEOUT_MS,
      onNotFound: createNotFoundRefresher({ db, discover, logger }),
    }),
    metrics,
    admission: createAdmission({
      flow: createFlow(producerRedis, cfg.REDIS_PREFIX, flowLimits(cfg)),
      kind: 'a2a',
      producer,
      logger,
      metrics,
    }),
    concurrency: cfg.DELIVERY_CONCURRENCY,
  });
  const worker = createItemConsumer('a2a', processItem, {
    redis,
    prefix: cfg.REDIS_PREFIX,
    concurrency: cfg.DELIVERY_CONCURRENCY,
    lockMs: cfg.WORKER_LOCK_MS,
    logger,
  });

  const backing = { postgres: () => sql`select 1`.execute(db), redis: () => producerRedis.ping() };
  let metricsServer: MetricsServer | undefined;
  return {
    async start() {
      metricsServer = await startServiceMetrics(registry, cfg, backing, logger);
      await waitForBacking(backing, logger);
      void worker.run();
      logger.info({ concurrency: cfg.DELIVERY_CONCURRENCY }, 'a2a worker consuming');
    },
    destroy: once(async () => {
      await worker.close();
      await producer.close();
      await dispatcher.destroy();
      cardAgent.destroy();
      await db.destroy();
      redis.disconnect();
      producerRedis.disconnect();
      await metricsServer?.close();
    }),
  };
}
