import { randomBytes } from 'node:crypto';
import type { Env } from '@evds/config';
import { testRedisPrefix, testRedisUrl } from './databases.ts';

/**
 * Configuration for services under test: the file's own database and Redis prefix, quiet logs,
 * loopback allowed by the network policy (test receivers live on 127.0.0.1), fast time-based limits
 * where a test asks for them. Every test client calls from 127.0.0.1 and many suites send bad
 * credentials or bursts on purpose, so the per-IP auth-failure limit and the per-credential API rate
 * limit are raised out of the way; the suites about those limits set them low themselves.
 */
export function testEnv(databaseUrl: string, overrides: Env = {}): Env {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    DB_POOL_SIZE: '5',
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: testRedisPrefix(),
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: '0',
    ENCRYPTION_KEYS: `test1:${randomBytes(32).toString('base64')}`,
    NETGUARD_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    DASHBOARD_ORIGIN: 'https://dashboard.test',
    AUTH_FAILURE_LIMIT: '1000000',
    API_RATE_LIMIT: '1000000',
    ...overrides,
  };
}
