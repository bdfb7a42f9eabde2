// Proves every rate limit, window, lifetime and cap of the limits groups refuses 0 at start, naming the
// variable (0 would not switch a check off: a sliding window with a limit of 0 lets everything through),
// in every service that reads it, while the defaults stay as they were.
import { describe, expect, it } from '@jest/globals';
import { loadApiConfig, loadIngestConfig, loadWorkerConfig, type Env } from './index.ts';

const shared = [
  'LOGIN_RATE_LIMIT',
  'LOGIN_RATE_WINDOW_SECONDS',
  'SESSION_TTL_SECONDS',
  'SESSIONS_PER_USER',
  'API_KEYS_PER_ORG',
  'INGEST_RATE_LIMIT',
  'INGEST_RATE_WINDOW_SECONDS',
  'IDEMPOTENCY_TTL_SECONDS',
  'MAILBOX_RETENTION_SECONDS',
  'MAILBOX_LEASE_SECONDS',
  'PAYLOAD_RETENTION_SECONDS',
  'EVENT_RETENTION_SECONDS',
  'SIGNUP_RATE_LIMIT',
  'SIGNUP_RATE_WINDOW_SECONDS',
  'LOGIN_PREFIX_RATE_LIMIT',
  'LOGIN_ACCOUNT_RATE_LIMIT',
  'AUTH_FAILURE_LIMIT',
  'AUTH_FAILURE_WINDOW_SECONDS',
];
const apiOnly = ['API_RATE_LIMIT', 'API_RATE_WINDOW_SECONDS', 'TARGETS_PER_ORG', 'MAILBOX_PAGE_MAX_BYTES'];

const loaders: [string, (env: Env) => unknown, string[]][] = [
  ['api', loadApiConfig, [...shared, ...apiOnly]],
  ['ingest', loadIngestConfig, shared],
  ['delivery-worker', (env) => loadWorkerConfig(env, 'delivery-worker'), shared],
];

describe('limits', () => {
  it('refuse AUTH_FAILURE_LIMIT=0 at start, naming it', () => {
    expect(() => loadApiConfig({ AUTH_FAILURE_LIMIT: '0' })).toThrow(
      /^invalid configuration:\n {2}AUTH_FAILURE_LIMIT: /,
    );
  });

  it.each(loaders)('refuse 0 and a negative value for every limit the %s reads', (_name, load, vars) => {
    for (const name of vars)
      for (const value of ['0', '-1'])
        expect(() => load({ [name]: value })).toThrow(new RegExp(`\\n {2}${name}: `));
  });

  it('keep the defaults', () => {
    expect(loadApiConfig({})).toMatchObject({
      LOGIN_RATE_LIMIT: 5,
      AUTH_FAILURE_LIMIT: 30,
      AUTH_FAILURE_WINDOW_SECONDS: 60,
      API_RATE_LIMIT: 1200,
      API_RATE_WINDOW_SECONDS: 60,
      TARGETS_PER_ORG: 1000,
      MAILBOX_PAGE_MAX_BYTES: 1024 * 1024,
    });
    expect(loadApiConfig({ AUTH_FAILURE_LIMIT: '1' }).AUTH_FAILURE_LIMIT).toBe(1);
  });
});
