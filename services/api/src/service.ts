// The management API: wires config, Postgres, Redis and every feature's routes into one express app.
import { authRoutes, keyRoutes, orgRoutes } from '@evds/accounts';
import { outboundDns, type ApiConfig } from '@evds/config';
import { countAutoDisabledTargets, countMailboxBacklog, createDb, poolStats } from '@evds/db';
import {
  buildOpenApiDocument,
  openApiRoute,
  createAuthFailureLimit,
  healthReportHandler,
  createHttpApp,
  createKeyUseNotes,
  createRateLimiter,
  dbCredentialStore,
  listen,
  mountRoutes,
  perCredentialLimit,
  type RouteDef,
  type RunningServer,
} from '@evds/http';
import {
  createHttpMetrics,
  createRegistry,
  registerMailboxGauges,
  registerReplicaGauges,
  registerTargetGauges,
  registerPoolGauges,
  startServiceMetrics,
  type MetricsServer,
} from '@evds/metrics';
import { createNetPolicy } from '@evds/netguard';
import { bumpCacheGeneration, createProducer, createRedis } from '@evds/queue';
import { createLogger, once, waitForBacking, type Service } from '@evds/runtime';
import { createSecretBox } from '@evds/secrets';
import { billingRoutes, createPaymentProcessor, usageRoutes } from '@evds/billing';
import { eventRoutes, recoverRoutes } from '@evds/events';
import { mailboxRoutes } from '@evds/mailbox';
import { ingestRouteDocs } from '@evds/ingest-core';
import { endpointRoutes, signingSecretRoutes, targetRoutes } from '@evds/targets';
import { Router } from 'express';
import { sql } from 'kysely';
import { apiHealth, createReadDb, replicaLagSeconds } from './read-replica.ts';

export interface ApiService extends Service {
  /** The port actually listened on (useful with PORT=0). */
  port(): number;
  routes: RouteDef[];
}

export function createApiService(cfg: ApiConfig): ApiService {
  // Both refuse a bad configuration here, at start, before any connection is opened.
  const secrets = createSecretBox(cfg.ENCRYPTION_KEYS);
  const logger = createLogger({ level: cfg.LOG_LEVEL, name: 'api' });
  const netPolicy = createNetPolicy({
    allowCidrs: cfg.NETGUARD_ALLOW_CIDRS,
    testHosts: cfg.NETGUARD_TEST_HOSTS,
    dns: outboundDns(cfg),
    onNameRefused: (refusal) => logger.warn(refusal, 'network policy refused a host name'),
  });
  const db = createDb({
    url: cfg.DATABASE_URL,
    poolSize: cfg.DB_POOL_SIZE,
    applicationName: 'evds-api',
    statementTimeoutMs: cfg.DB_STATEMENT_TIMEOUT_MS,
  });
  // The event list, detail and stats read here when DATABASE_READ_URL names a replica.
  const readDb = createReadDb(cfg);
  const redis = createRedis(cfg.REDIS_URL, { role: 'client', name: 'evds-api' });
  const producer = createProducer(redis, cfg.REDIS_PREFIX);
  // Sliding windows in Redis, shared by every replica.
  const window = (limit: number, windowSeconds: number) =>
    createRateLimiter(redis, { prefix: `${cfg.REDIS_PREFIX}:rl`, limit, windowSeconds });
  const authLimiters = {
    loginLimiter: window(cfg.LOGIN_RATE_LIMIT, cfg.LOGIN_RATE_WINDOW_SECONDS),
    loginPrefixLimiter: window(cfg.LOGIN_PREFIX_RATE_LIMIT, cfg.LOGIN_RATE_WINDOW_SECONDS),
    loginAccountLimiter: window(cfg.LOGIN_ACCOUNT_RATE_LIMIT, cfg.LOGIN_RATE_WINDOW_SECONDS),
    signupLimiter: window(cfg.SIGNUP_RATE_LIMIT, cfg.SIGNUP_RATE_WINDOW_SECONDS),
  };
  // The ingest service's window per target, the same key and limits: replay and recover count in it too.
  const ingestLimiter = window(cfg.INGEST_RATE_LIMIT, cfg.INGEST_RATE_WINDOW_SECONDS);
  const registry = createRegistry('api');
  registerPoolGauges(registry, () => poolStats(db));
  // The mailbox backlog is the api's to report: it serves the mailboxes. Each count stops at 100k.
  registerMailboxGauges(registry, () => countMailboxBacklog(db, 100_000, 1000));
  // So is the count of auto-disabled targets: a table-wide count, the same whichever process reads it,
  // and the api runs however many workers (of whichever kinds) are deployed.
  registerTargetGauges(registry, async () => ({ autoDisabled: await countAutoDisabledTargets(db) }));
  if (readDb) registerReplicaGauges(registry, () => replicaLagSeconds(readDb));

  const routes: RouteDef[] = [
    ...authRoutes({
      db,
      ...authLimiters,
      sessionTtlSeconds: cfg.SESSION_TTL_SECONDS,
      sessionsPerUser: cfg.SESSIONS_PER_USER,
    }),
    ...orgRoutes({ db }),
    ...keyRoutes({ db, keysPerOrg: cfg.API_KEYS_PER_ORG }),
    ...endpointRoutes({
      db,
      secrets,
      netPolicy,
      redis,
      prefix: cfg.REDIS_PREFIX,
      targetsPerOrg: cfg.TARGETS_PER_ORG,
    }),
    ...targetRoutes({
      db,
      secrets,
      netPolicy,
      redis,
      prefix: cfg.REDIS_PREFIX,
      targetsPerOrg: cfg.TARGETS_PER_ORG,
    }),
    ...signingSecretRoutes({ db, secrets }),
    ...eventRoutes({
      db,
      readDb,
      producer,
      ingestLimiter,
      logger,
      mailboxRetentionSeconds: cfg.MAILBOX_RETENTION_SECONDS,
      eventRetentionSeconds: cfg.EVENT_RETENTION_SECONDS,
    }),
    ...recoverRoutes({ db, producer, ingestLimiter, logger }),
    ...usageRoutes({ db }),
    ...billingRoutes({
      db,
      processor: createPaymentProcessor({ enabled: cfg.BILLING_ENABLED }),
      webhookSecret: cfg.BILLING_WEBHOOK_SECRET,
      graceSeconds: cfg.BILLING_GRACE_SECONDS,
    }),
    ...mailboxRoutes({
      db,
      leaseSeconds: cfg.MAILBOX_LEASE_SECONDS,
      pageMaxBytes: cfg.MAILBOX_PAGE_MAX_BYTES,
    }),
  ];
  routes.push(
    openApiRoute(() =>
      buildOpenApiDocument([...routes, ...ingestRouteDocs], {
        title: 'Event delivery service API',
        version: '1.0.0',
      }),
    ),
  );

  const backing = { postgres: () => sql`select 1`.execute(db), redis: () => redis.ping() };
  const health = apiHealth(backing, readDb);
  const router = Router();
  router.get('/health', healthReportHandler(health));
  router.use(
    mountRoutes(routes, {
      credentials: dbCredentialStore(db, createKeyUseNotes(db, logger)),
      bodyLimitBytes: cfg.BODY_LIMIT_BYTES,
      authFailures: createAuthFailureLimit(redis, {
        prefix: `${cfg.REDIS_PREFIX}:rl`,
        limit: cfg.AUTH_FAILURE_LIMIT,
        windowSeconds: cfg.AUTH_FAILURE_WINDOW_SECONDS,
        logger,
      }),
      perCredential: perCredentialLimit(window(cfg.API_RATE_LIMIT, cfg.API_RATE_WINDOW_SECONDS), logger),
      // Ingest caches keys, targets and billing states: a change to them must reach it before the answer.
      invalidateIngest: () =>
        bumpCacheGeneration(redis, cfg.REDIS_PREFIX).catch((err: unknown) => {
          logger.error({ err }, 'could not bump the cache generation; ingest caches may lag up to a minute');
          throw err;
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
    routes,
    port: () => server?.port ?? 0,
    async start() {
      metricsServer = await startServiceMetrics(registry, cfg, health, logger);
      await waitForBacking(backing, logger);
      server = await listen(app, cfg.PORT, cfg.HOST);
      logger.info({ port: server.port }, 'api listening');
    },
    destroy: once(async () => {
      await server?.close();
      await producer.close();
      await db.destroy();
      await readDb?.destroy();
      redis.disconnect();
      await metricsServer?.close();
    }),
  };
}
