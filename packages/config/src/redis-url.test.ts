// Proves how REDIS_URL is read: a redis:// or rediss:// URL stays a single server's URL (handed to
// ioredis as before), a redis-cluster:// URL gives the seed nodes with their credentials and TLS, and a
// malformed cluster URL stops every service at start, naming REDIS_URL.
import { expect, it } from '@jest/globals';
import { loadIngestConfig, loadWorkerConfig } from './index.ts';
import { parseRedisUrl } from './redis-url.ts';

it('keeps single-server URLs as they are', () => {
  for (const url of ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379/2', 'rediss://u:p@cache:6380'])
    expect(parseRedisUrl(url)).toEqual({ kind: 'single', url });
});

it('reads a cluster URL: seed nodes, credentials (URL-decoded) and TLS', () => {
  expect(parseRedisUrl('redis-cluster://10.0.0.1:7000,10.0.0.2:7001,redis-2.internal:7002')).toEqual({
    kind: 'cluster',
    nodes: [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: 'redis-2.internal', port: 7002 },
    ],
    tls: false,
  });
  expect(parseRedisUrl('rediss-cluster://evds:p%40ss%3Aword@[::1]:7000/')).toEqual({
    kind: 'cluster',
    nodes: [{ host: '::1', port: 7000 }],
    username: 'evds',
    password: 'p@ss:word',
    tls: true,
  });
  expect(parseRedisUrl('redis-cluster://:secret@a:1')).toMatchObject({ password: 'secret' });
});

it('refuses a malformed cluster URL at start, naming REDIS_URL', () => {
  for (const url of ['redis-cluster://', 'redis-cluster://a', 'redis-cluster://a:0', 'redis-cluster://a:1/2'])
    expect(() => loadIngestConfig({ REDIS_URL: url })).toThrow(/\n {2}REDIS_URL: /);
  expect(loadWorkerConfig({ REDIS_URL: 'redis-cluster://a:7000,b:7001' }, 'delivery-worker').REDIS_URL).toBe(
    'redis-cluster://a:7000,b:7001',
  );
});
