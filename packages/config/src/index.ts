// The only place that reads process.env. Each service calls its own load function once at start.
import { isIP } from 'node:net';
import { z } from 'zod';
import { dashboardSettings, refuseUnsafeDashboard } from './dashboard.ts';
import { bool, csv, int, parseEnv, positive, type Env } from './env.ts';
import { parseRedisUrl } from './redis-url.ts';

export { parseEnv, type Env } from './env.ts';
export { parseRedisUrl, type ClusterNodeAddress, type RedisTarget } from './redis-url.ts';

/** "name=ip,name=ip" (a name may repeat) into name -> addresses, names lower-cased. */
const hostTable = csv
  .pipe(
    z.array(
      z.string().refine((entry) => {
        const [name, ip, ...rest] = entry.split('=');
        return !!name && rest.length === 0 && isIP(ip ?? '') !== 0;
      }, 'must be name=ip with an IP address'),
    ),
  )
  .transform((entries) => {
    const table: Record<string, string[]> = {};
    for (const entry of entries) {
      const [name = '', ip = ''] = entry.split('=');
      (table[name.toLowerCase()] ??= []).push(ip);
    }
    return table;
  });

function checkRedisUrl(url: string, ctx: z.RefinementCtx): void {
  try {
    parseRedisUrl(url);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
}

const base = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/evds'),
  DB_POOL_SIZE: int.default(10),
  /** One server (redis://, rediss://) or a Redis Cluster's seed nodes (redis-cluster://host:port,host:port). */
  REDIS_URL: z.string().default('redis://127.0.0.1:6379').superRefine(checkRedisUrl),
  /** Prefix of every Redis key and BullMQ queue, so several deployments (or test files) share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]+$/)
    .default('evds'),
  /** Encryption keys for secrets at rest, "kid:base64(32 bytes)" comma-separated; the first one encrypts. */
  ENCRYPTION_KEYS: z.string().default(''),
  /** CIDR ranges that outbound URLs may use although not public (development and tests only). */
  NETGUARD_ALLOW_CIDRS: csv.default([]),
  /**
   * Tests only: "name=ip,name=ip" answers the network policy's resolver gives for these names before
   * asking DNS, so a test can make a name resolve elsewhere at delivery than at creation (rebinding).
   */
  NETGUARD_TEST_HOSTS: hostTable.default({}),
  SHUTDOWN_TIMEOUT_MS: int.default(10_000),
});

const httpServer = z.object({
  HOST: z.string().default('0.0.0.0'),
  DASHBOARD_ORIGIN: z.string().default(''),
  /** Proxy addresses (CIDRs, or "loopback"...) whose X-Forwarded-For is believed. Empty: none. */
  TRUST_PROXY: csv.default([]),
});

/**
 * The metrics port (GET /metrics, /health, /live), apart from the public port. Each service has its
 * own default so all four can run on one host; 0 picks a free port (tests read it from the log line).
 */
const metrics = (port: number) =>
  z.object({
    METRICS_PORT: int.default(port),
    METRICS_HOST: z.string().default('0.0.0.0'),
  });

export const metricsPortDefaults = {
  api: 9100,
  ingest: 9101,
  'delivery-worker': 9102,
  'a2a-worker': 9103,
  dashboard: 9104,
} as const;
export type WorkerName = 'delivery-worker' | 'a2a-worker';

// Every limit, window, lifetime and cap below is positive: 0 would not switch a check off but break it
// (a sliding window with a limit of 0 makes its Redis script fail, and the limiter lets everything by).
const limits = z.object({
  LOGIN_RATE_LIMIT: positive.default(5),
  LOGIN_RATE_WINDOW_SECONDS: positive.default(15 * 60),
  SESSION_TTL_SECONDS: positive.default(7 * 24 * 3600),
  SESSIONS_PER_USER: positive.default(5),
  API_KEYS_PER_ORG: positive.default(5),
  INGEST_RATE_LIMIT: positive.default(100),
  INGEST_RATE_WINDOW_SECONDS: positive.default(60),
  IDEMPOTENCY_TTL_SECONDS: positive.default(24 * 3600),
  MAILBOX_RETENTION_SECONDS: positive.default(7 * 24 * 3600),
  /** How long a mailbox claim lasts; the holder's claim again extends it (a heartbeat). */
  MAILBOX_LEASE_SECONDS: positive.default(300),
  PAYLOAD_RETENTION_SECONDS: positive.default(30 * 24 * 3600),
  /**
   * How long event records (events, their attempts, usage records) are kept; longer than payloads.
   * An event past it answers 404, and whole time partitions past it are dropped (usage rollups stay).
   */
  EVENT_RETENTION_SECONDS: positive.default(90 * 24 * 3600),
  /** The disabled signup route still counts its callers: per IP, like login. */
  SIGNUP_RATE_LIMIT: positive.default(3),
  SIGNUP_RATE_WINDOW_SECONDS: positive.default(15 * 60),
  /** Login attempts per IPv6 /64 (beside the per-address limit) and per account, in the login window. */
  LOGIN_PREFIX_RATE_LIMIT: positive.default(20),
  LOGIN_ACCOUNT_RATE_LIMIT: positive.default(10),
  /** Failed authentications (401) per client IP on the API and ingest; beyond, 429 without a lookup. */
  AUTH_FAILURE_LIMIT: positive.default(30),
  AUTH_FAILURE_WINDOW_SECONDS: positive.default(60),
});

/** Bounds on what one caller may cost the API's database and memory. */
const apiLimits = z.object({
  /** Requests per credential (API key or session) on the management API, sliding window. */
  API_RATE_LIMIT: positive.default(1200),
  API_RATE_WINDOW_SECONDS: positive.default(60),
  /** Targets (of every kind) per workspace; creating one more answers 409. */
  TARGETS_PER_ORG: positive.default(1000),
  /** A mailbox page stops adding messages once their payloads reach this many bytes (one always fits). */
  MAILBOX_PAGE_MAX_BYTES: positive.default(1024 * 1024),
});

/** Any one SQL statement of a request is cancelled after this (the request answers 503, never hangs). */
const statements = z.object({
  DB_STATEMENT_TIMEOUT_MS: int.default(5_000),
});

const delivery = z.object({
  /** Delay before each retry, in milliseconds; the count is the number of retries after the first attempt. */
  RETRY_DELAYS_MS: csv
    .transform((xs) => xs.map(Number))
    .pipe(z.array(z.number().int().nonnegative()))
    .default([60_000, 120_000, 240_000, 480_000, 960_000]),
  DELIVERY_TIMEOUT_MS: int.default(15_000),
  DELIVERY_CONCURRENCY: int.default(100),
  SWEEP_INTERVAL_MS: int.default(30_000),
  /** A QUEUED/RETRYING item this long past its due time with no job is re-enqueued. */
  SWEEP_GRACE_MS: int.default(60_000),
  MAINTENANCE_INTERVAL_MS: int.default(60_000),
  /** How long a worker holds a job before another may take it over (a crashed worker's jobs come back after this). */
  WORKER_LOCK_MS: int.default(30_000),
  /** Connecting (TCP and TLS) must finish within this; the whole attempt within DELIVERY_TIMEOUT_MS. */
  DELIVERY_CONNECT_TIMEOUT_MS: int.default(3_000),
  /** Attempts in flight at once for one target, across every worker process (held in Redis). */
  TARGET_MAX_IN_FLIGHT: z.coerce.number().int().positive().default(10),
  /**
   * Attempts in flight at once for one organization's targets together, across every worker process:
   * below the deployment's total slots, so one tenant's hanging targets cannot hold them all.
   */
  ORG_MAX_IN_FLIGHT: z.coerce.number().int().positive().default(25),
  /** Consecutive failed attempts that open a target's circuit (its due deliveries then wait for a probe). */
  CIRCUIT_FAILURE_THRESHOLD: z.coerce.number().int().positive().default(5),
  /** Wait before the first probe of an open circuit; doubles after each failed probe up to the maximum. */
  CIRCUIT_COOLDOWN_MS: int.default(10_000),
  CIRCUIT_COOLDOWN_MAX_MS: int.default(300_000),
  /** A target that failed every attempt for this long is disabled (0: never). */
  AUTO_DISABLE_AFTER_SECONDS: int.default(5 * 24 * 3600),
  /** Events a bulk recovery replays per second (it paces itself in batches). */
  RECOVERY_RATE_PER_SECOND: z.coerce.number().int().positive().default(200),
});

/**
 * Outbound name resolution (targets' URLs): asked of DNS servers directly, off libuv's thread pool,
 * with a time-out, a retry count and a cap on lookups in flight, so a name server that never answers
 * costs one tenant its own lookups and nothing else.
 */
const dns = z.object({
  /** DNS servers to ask ("ip" or "ip:port", comma-separated); empty: the system's (/etc/resolv.conf). */
  DNS_SERVERS: csv.default([]),
  DNS_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
  DNS_TRIES: z.coerce.number().int().positive().default(2),
  DNS_MAX_CONCURRENT: z.coerce.number().int().positive().default(32),
});

/** Live billing (decisions §7): off during the beta; nothing is charged and usage stays local. */
const billing = z.object({
  BILLING_ENABLED: bool.default(false),
  /** How long an organization stays in grace after a failed invoice before it is suspended. */
  BILLING_GRACE_SECONDS: int.default(3 * 24 * 3600),
  /** HMAC secret of the payment processor's webhook signatures; empty refuses every webhook. */
  BILLING_WEBHOOK_SECRET: z.string().default(''),
});

const apiSchema = base
  .extend(httpServer.shape)
  .extend(limits.shape)
  .extend(billing.shape)
  .extend(dns.shape)
  .extend(apiLimits.shape)
  .extend(statements.shape)
  .extend(metrics(metricsPortDefaults.api).shape)
  .extend({
    PORT: int.default(3000),
    BODY_LIMIT_BYTES: int.default(1024 * 1024),
    /**
     * A streaming replica for the event list, event detail and stats reads (empty: they read
     * DATABASE_URL). Its pool is DB_POOL_SIZE and DB_STATEMENT_TIMEOUT_MS applies to it too.
     */
    DATABASE_READ_URL: z.string().default(''),
  });
const ingestSchema = base
  .extend(httpServer.shape)
  .extend(limits.shape)
  .extend(statements.shape)
  .extend(metrics(metricsPortDefaults.ingest).shape)
  .extend({
    PORT: int.default(3001),
    /** Hard cap on any ingest body, above every target's own max_payload_bytes. */
    BODY_LIMIT_BYTES: int.default(1024 * 1024),
  });
const workerSchema = base.extend(limits.shape).extend(delivery.shape).extend(billing.shape).extend(dns.shape);
const workerSchemas = {
  'delivery-worker': workerSchema.extend(metrics(metricsPortDefaults['delivery-worker']).shape),
  'a2a-worker': workerSchema.extend(metrics(metricsPortDefaults['a2a-worker']).shape),
};

/** The dashboard's back end: no database, no Redis; it calls the API. */
const dashboardSchema = base
  .pick({ NODE_ENV: true, LOG_LEVEL: true, SHUTDOWN_TIMEOUT_MS: true })
  .extend(httpServer.pick({ HOST: true, TRUST_PROXY: true }).shape)
  .extend(metrics(metricsPortDefaults.dashboard).shape)
  .extend(dashboardSettings.shape);

export type ApiConfig = z.output<typeof apiSchema>;
export type DashboardConfig = z.output<typeof dashboardSchema>;

/** The outbound resolver's settings, as the network policy takes them (api and workers). */
export const outboundDns = (cfg: z.output<typeof dns>) => ({
  servers: cfg.DNS_SERVERS,
  timeoutMs: cfg.DNS_TIMEOUT_MS,
  tries: cfg.DNS_TRIES,
  maxConcurrent: cfg.DNS_MAX_CONCURRENT,
});
export type IngestConfig = z.output<typeof ingestSchema>;
export type WorkerConfig = z.output<(typeof workerSchemas)[WorkerName]>;
export type BaseConfig = z.output<typeof base>;

function refuseUnsafeProduction<C extends BaseConfig>(cfg: C): C {
  if ('EVENT_RETENTION_SECONDS' in cfg && 'PAYLOAD_RETENTION_SECONDS' in cfg) {
    const { EVENT_RETENTION_SECONDS: records, PAYLOAD_RETENTION_SECONDS: payloads } = cfg as C &
      z.output<typeof limits>;
    if (records <= payloads)
      throw new Error(
        'invalid configuration: EVENT_RETENTION_SECONDS must be longer than PAYLOAD_RETENTION_SECONDS',
      );
  }
  if (cfg.NODE_ENV === 'production' && cfg.NETGUARD_ALLOW_CIDRS.length > 0) {
    throw new Error('invalid configuration: NETGUARD_ALLOW_CIDRS is refused when NODE_ENV=production');
  }
  if (cfg.NODE_ENV === 'production' && Object.keys(cfg.NETGUARD_TEST_HOSTS).length > 0) {
    throw new Error('invalid configuration: NETGUARD_TEST_HOSTS is refused when NODE_ENV=production');
  }
  return cfg;
}

export const loadApiConfig = (env: Env = process.env): ApiConfig =>
  refuseUnsafeProduction(parseEnv(apiSchema, env));
export const loadIngestConfig = (env: Env = process.env): IngestConfig =>
  refuseUnsafeProduction(parseEnv(ingestSchema, env));
/** Both workers read the same settings; only the default metrics port differs. */
export const loadWorkerConfig = (
  env: Env = process.env,
  worker: WorkerName = 'delivery-worker',
): WorkerConfig => refuseUnsafeProduction(parseEnv(workerSchemas[worker], env));
export const loadA2aWorkerConfig = (env: Env = process.env): WorkerConfig =>
  loadWorkerConfig(env, 'a2a-worker');
export const loadDashboardConfig = (env: Env = process.env): DashboardConfig =>
  refuseUnsafeDashboard(parseEnv(dashboardSchema, env));
export { defaultDashboardStaticDir } from './dashboard.ts';
export * from './node-options.ts';
