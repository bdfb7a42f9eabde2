// Proves the first two rungs against the machine's real servers on 127.0.0.1:5432 and :6379:
// DATABASE_URL / REDIS_URL win over everything else, an answering default port is used as is,
// and stop() never touches a server this package did not start.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureBacking } from './ensure-backing.ts';
import { unusedPort } from './ports.ts';
import { probePostgres, probeRedis } from './probes.ts';
import { databaseUrlOf } from './urls.ts';

let dataDir: string;
let closedPort: number;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'localenv-'));
  closedPort = await unusedPort();
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('ensureBacking', () => {
  it('honours DATABASE_URL and REDIS_URL', async () => {
    const lines: string[] = [];
    const backing = await ensureBacking({
      dataDir,
      log: (msg) => lines.push(msg),
      env: {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/some_app?application_name=localenv_test',
        REDIS_URL: 'redis://127.0.0.1:6379/2',
      },
      // Closed defaults: only the env can explain a working answer.
      defaultPostgresPort: closedPort,
      defaultRedisPort: closedPort,
    });

    expect(backing.postgresUrl).toBe('postgres://postgres@127.0.0.1:5432?application_name=localenv_test');
    expect(backing.redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(lines).toEqual([
      'postgres: using DATABASE_URL (postgres://postgres@127.0.0.1:5432?application_name=localenv_test)',
      'redis: using REDIS_URL (redis://127.0.0.1:6379/2)',
    ]);
    expect(await probePostgres(databaseUrlOf(backing.postgresUrl, 'postgres'))).toEqual({ ok: true });
    await backing.stop();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('finds the servers answering on the default ports and leaves them running', async () => {
    const lines: string[] = [];
    const backing = await ensureBacking({ dataDir, log: (msg) => lines.push(msg), env: {} });

    expect(backing.postgresUrl).toBe('postgres://postgres@127.0.0.1:5432');
    expect(backing.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(lines).toEqual([
      'postgres: using server on 127.0.0.1:5432',
      'redis: using server on 127.0.0.1:6379',
    ]);

    await backing.stop();
    expect(await probePostgres('postgres://postgres@127.0.0.1:5432/postgres')).toEqual({ ok: true });
    expect(await probeRedis(6379)).toEqual({ ok: true });
    expect(await readdir(dataDir)).toEqual([]);
  });
});
