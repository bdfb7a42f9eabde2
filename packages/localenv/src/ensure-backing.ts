import type { Backing, Log } from './backing.ts';
import { once } from './backing.ts';
import { ensurePostgres } from './postgres-ladder.ts';
import { ensureRedis } from './redis-ladder.ts';

export interface EnsureBackingOptions {
  // Private instances live here: <dataDir>/pg, <dataDir>/redis, their logs and sockets.
  dataDir: string;
  log?: Log;
  // Defaults to process.env; only DATABASE_URL and REDIS_URL are read.
  env?: Record<string, string | undefined>;
  // Where the machine's shared servers are looked for (5432, 6379); tests point these at closed ports.
  defaultPostgresPort?: number;
  defaultRedisPort?: number;
  // First port tried for a private instance (54329, 63799); the next free one is used when taken.
  privatePostgresPort?: number;
  privateRedisPort?: number;
  // Keep testcontainers containers after this process exits (for a CLI whose URLs outlive it).
  keepContainers?: boolean;
}

export interface BackingServers {
  // No database path: append `/<name>` (see createDatabaseIfMissing).
  postgresUrl: string;
  redisUrl: string;
  // Stops what this call started: private instances it launched and its containers. Shared
  // servers, env-provided servers and private instances reused from an earlier process are left alone.
  stop: () => Promise<void>;
}

const writeToStderr: Log = (msg) => void process.stderr.write(`${msg}\n`);

export async function ensureBacking(opts: EnsureBackingOptions): Promise<BackingServers> {
  const log = opts.log ?? writeToStderr;
  const common = {
    dataDir: opts.dataDir,
    log,
    env: opts.env ?? process.env,
    keepContainers: opts.keepContainers ?? false,
  };
  // One after the other: both ladders may end in apt-get, and dpkg allows one install at a time.
  const postgres = await ensurePostgres({
    ...common,
    defaultPort: opts.defaultPostgresPort ?? 5432,
    privatePort: opts.privatePostgresPort ?? 54329,
  });
  let redis: Backing;
  try {
    redis = await ensureRedis({
      ...common,
      defaultPort: opts.defaultRedisPort ?? 6379,
      privatePort: opts.privateRedisPort ?? 63799,
    });
  } catch (err) {
    await postgres.stop().catch(() => undefined);
    throw err;
  }
  return {
    postgresUrl: postgres.url,
    redisUrl: redis.url,
    stop: once(async () => {
      try {
        await redis.stop();
      } finally {
        await postgres.stop();
      }
    }),
  };
}
