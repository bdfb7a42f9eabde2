// Proves the private-instance rung for real: with no env and nothing on the default ports, a
// private Postgres (initdb + pg_ctl, as evds-pg when root) and a private redis-server start under
// a temp data dir; a second call reuses them without owning them; the first call's stop() stops
// them; a later call restarts them on the same data (no second initdb, the database survives).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createDatabaseIfMissing } from './create-database.ts';
import type { BackingServers } from './ensure-backing.ts';
import { ensureBacking } from './ensure-backing.ts';
import { unusedPort } from './ports.ts';
import { probePostgres, probeRedis } from './probes.ts';

const started: BackingServers[] = [];
let dataDir: string | undefined;

afterAll(async () => {
  for (const backing of started) await backing.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const portOf = (url: string) => Number(new URL(url).port);

describe('private instances', () => {
  it('starts, reuses, stops and restarts a private Postgres and Redis', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'localenv-private-'));
    const closed = await unusedPort();
    const lines: string[] = [];
    const opts = {
      dataDir,
      env: {},
      defaultPostgresPort: closed,
      defaultRedisPort: closed,
      log: (msg: string) => lines.push(msg),
    };

    const first = await ensureBacking(opts);
    started.push(first);
    expect(first.postgresUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+$/);
    expect(first.redisUrl).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    expect([5432, closed]).not.toContain(portOf(first.postgresUrl));
    expect([6379, closed]).not.toContain(portOf(first.redisUrl));
    expect(lines.some((l) => l.startsWith('postgres: initdb into '))).toBe(true);
    expect(lines.some((l) => l.startsWith('postgres: started private instance on 127.0.0.1:'))).toBe(true);
    expect(lines.some((l) => l.startsWith('redis: started private instance on 127.0.0.1:'))).toBe(true);
    const dbUrl = await createDatabaseIfMissing(first.postgresUrl, 'kept');
    expect(await probePostgres(dbUrl)).toEqual({ ok: true });
    expect(await probeRedis(portOf(first.redisUrl))).toEqual({ ok: true });

    const second = await ensureBacking(opts);
    expect(second).toMatchObject({ postgresUrl: first.postgresUrl, redisUrl: first.redisUrl });
    await second.stop();
    expect(await probePostgres(dbUrl)).toEqual({ ok: true });
    expect(await probeRedis(portOf(first.redisUrl))).toEqual({ ok: true });

    await first.stop();
    expect((await probePostgres(dbUrl)).ok).toBe(false);
    expect((await probeRedis(portOf(first.redisUrl))).ok).toBe(false);

    lines.length = 0;
    const third = await ensureBacking(opts);
    started.push(third);
    expect(lines.some((l) => l.startsWith('postgres: initdb'))).toBe(false);
    expect(await probePostgres(`${third.postgresUrl}/kept`)).toEqual({ ok: true });
    expect(await probeRedis(portOf(third.redisUrl))).toEqual({ ok: true });
  }, 120_000);
});
