// Restartable private servers (what fault suites take away from running services): each comes back on
// its own port after a stop, Postgres with its data, Redis empty after a wipe; the machine's shared
// servers are never used.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { createDatabaseIfMissing } from './create-database.ts';
import { probePostgres, probeRedis } from './probes.ts';
import type { RestartableRedis, RestartableServer } from './restartable.ts';
import { startRestartablePostgres, startRestartableRedis } from './restartable.ts';

let dataDir: string | undefined;
const servers: RestartableServer[] = [];

afterAll(async () => {
  for (const s of servers) await s.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** One inline command over a raw socket (as probeRedis does), so this package needs no Redis client. */
async function redisCommand(port: number, line: string): Promise<string> {
  const { connect } = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.on('connect', () => socket.write(`${line}\r\n`));
    socket.on('data', (c: Buffer) => {
      reply += c.toString();
      if (!reply.includes('\r\n')) return;
      socket.destroy();
      resolve(reply.split('\r\n')[0] ?? '');
    });
    socket.on('error', reject);
  });
}

it('stops and starts Postgres and Redis on the same ports; a wiped Redis starts empty', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'localenv-restartable-'));
  const postgres = await startRestartablePostgres({ dataDir });
  servers.push(postgres);
  const redis: RestartableRedis = await startRestartableRedis({ dataDir });
  servers.push(redis);
  expect([5432, 6379]).not.toContain(postgres.port);
  expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);

  const dbUrl = await createDatabaseIfMissing(postgres.url, 'kept');
  await postgres.stop();
  expect(postgres.running()).toBe(false);
  expect((await probePostgres(dbUrl)).ok).toBe(false);
  await postgres.start();
  expect(await probePostgres(dbUrl)).toEqual({ ok: true });

  expect(await redisCommand(redis.port, 'SET k v')).toBe('+OK');
  await expect(redis.wipe()).rejects.toThrow(/stop the instance/);
  await redis.stop();
  expect((await probeRedis(redis.port)).ok).toBe(false);
  await redis.wipe();
  await redis.start();
  expect(await redisCommand(redis.port, 'EXISTS k')).toBe(':0');
}, 90_000);
