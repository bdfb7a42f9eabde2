import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Backing, Log } from './backing.ts';
import { borrowed, once } from './backing.ts';
import { pickPort } from './ports.ts';
import { probeRedis, processAlive } from './probes.ts';
import { runOrThrow, which } from './shell.ts';

export function findRedisServer(): Promise<string | undefined> {
  return which('redis-server');
}

interface Paths {
  dir: string;
  pidFile: string;
  // redis does not record its port anywhere we can read back, so we do.
  portFile: string;
  logFile: string;
}

/** Where a private instance under `dataDir` keeps its AOF, snapshot, pid and port files. */
export const privateRedisDir = (dataDir: string): string => join(resolve(dataDir), 'redis');

function pathsOf(dataDir: string): Paths {
  const root = resolve(dataDir);
  const dir = privateRedisDir(root);
  return {
    dir,
    pidFile: join(dir, 'redis.pid'),
    portFile: join(dir, 'port'),
    logFile: join(root, 'redis.log'),
  };
}

async function readNumber(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const value = Number(text?.trim());
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

async function runningInstance(paths: Paths): Promise<{ pid: number; port: number } | undefined> {
  const pid = await readNumber(paths.pidFile);
  const port = await readNumber(paths.portFile);
  if (!pid || !port || !processAlive(pid)) return undefined;
  return (await probeRedis(port)).ok ? { pid, port } : undefined;
}

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

export interface PrivateRedisOptions {
  dataDir: string;
  preferredPort: number;
  redisServer: string;
  log: Log;
}

export async function startPrivateRedis(opts: PrivateRedisOptions): Promise<Backing> {
  const { log } = opts;
  const paths = pathsOf(opts.dataDir);
  const running = await runningInstance(paths);
  if (running) {
    // Same rule as Postgres: an instance an earlier process started outlives our stop().
    log(
      `redis: reusing private instance on 127.0.0.1:${running.port} (pid ${running.pid}, dir ${paths.dir}); ` +
        'stop() leaves it running',
    );
    return borrowed(`redis://127.0.0.1:${running.port}`);
  }

  await mkdir(paths.dir, { recursive: true });
  const port = await pickPort(opts.preferredPort);
  // noeviction: BullMQ loses jobs silently under any eviction policy.
  await runOrThrow(
    opts.redisServer,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--daemonize',
      'yes',
      '--dir',
      paths.dir,
      '--appendonly',
      'yes',
      '--maxmemory-policy',
      'noeviction',
      '--pidfile',
      paths.pidFile,
      '--logfile',
      paths.logFile,
    ],
    { cwd: paths.dir },
  );
  // --daemonize returns before the server listens (and loads the AOF).
  const answered = await waitUntil(async () => (await probeRedis(port)).ok, 30_000);
  if (!answered) {
    const tail = (await readFile(paths.logFile, 'utf8').catch(() => '')).trim().split('\n').slice(-5);
    throw new Error(`private redis did not answer on ${port}: ${tail.join(' | ')}`);
  }
  await writeFile(paths.portFile, `${port}\n`);
  const pid = await readNumber(paths.pidFile);
  log(`redis: started private instance on 127.0.0.1:${port} (pid ${pid ?? '?'}, dir ${paths.dir})`);

  return {
    url: `redis://127.0.0.1:${port}`,
    stop: once(async () => {
      if (!pid || !processAlive(pid)) return;
      // SIGTERM makes redis flush the AOF and exit cleanly.
      process.kill(pid, 'SIGTERM');
      if (!(await waitUntil(() => !processAlive(pid), 15_000))) process.kill(pid, 'SIGKILL');
      log(`redis: stopped private instance on 127.0.0.1:${port}`);
    }),
  };
}
