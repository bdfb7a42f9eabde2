// Private servers a caller may take away and bring back, for fault suites that stop Postgres or
// restart Redis under running services. They are always private instances under the caller's data
// dir on ports of their own: the machine's shared servers (5432, 6379) are never touched, since other
// test files use them at the same time.
import { rm } from 'node:fs/promises';
import type { Backing, Log } from './backing.ts';
import { unusedPort } from './ports.ts';
import { findPostgresBinaries, startPrivatePostgres } from './private-postgres.ts';
import { findRedisServer, privateRedisDir, startPrivateRedis } from './private-redis.ts';

export interface RestartableServer {
  /** No database path for Postgres (append `/<name>`); stays the same across restarts. */
  url: string;
  port: number;
  running(): boolean;
  /** Postgres: `pg_ctl stop -m fast` (sessions are cut, like a crash seen from the clients); Redis: SIGTERM. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; fails rather than move to another port. */
  start(): Promise<void>;
}

export interface RestartableRedis extends RestartableServer {
  /** Deletes every file of the stopped instance (AOF, snapshot), so the next start is empty. */
  wipe(): Promise<void>;
}

export interface RestartableOptions {
  /** Owned by the caller, e.g. a fresh temp dir; the server's files go under it. */
  dataDir: string;
  /** A free port is picked when not given. */
  port?: number;
  log?: Log;
}

const quiet: Log = () => undefined;

interface Controls {
  running(): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Start/stop around a launcher that may pick another port when the wanted one is taken: that is refused. */
function controls(port: number, launch: () => Promise<Backing>): Controls {
  let current: Backing | undefined;
  return {
    running: () => current !== undefined,
    start: async () => {
      if (current) return;
      const backing = await launch();
      const actual = Number(new URL(backing.url).port);
      if (actual !== port) {
        await backing.stop();
        throw new Error(`private server came up on port ${actual}, not ${port} (the port was taken)`);
      }
      current = backing;
    },
    stop: async () => {
      const backing = current;
      current = undefined;
      await backing?.stop();
    },
  };
}

export async function startRestartablePostgres(opts: RestartableOptions): Promise<RestartableServer> {
  const binaries = await findPostgresBinaries();
  if (!binaries) throw new Error('postgres: no initdb/pg_ctl installed for a private instance');
  const port = opts.port ?? (await unusedPort());
  const log = opts.log ?? quiet;
  const server = controls(port, () =>
    startPrivatePostgres({ dataDir: opts.dataDir, preferredPort: port, binaries, log }),
  );
  await server.start();
  return { ...server, url: `postgres://postgres@127.0.0.1:${port}`, port };
}

export async function startRestartableRedis(opts: RestartableOptions): Promise<RestartableRedis> {
  const redisServer = await findRedisServer();
  if (!redisServer) throw new Error('redis: no redis-server installed for a private instance');
  const port = opts.port ?? (await unusedPort());
  const log = opts.log ?? quiet;
  const server = controls(port, () =>
    startPrivateRedis({ dataDir: opts.dataDir, preferredPort: port, redisServer, log }),
  );
  await server.start();
  return {
    ...server,
    url: `redis://127.0.0.1:${port}`,
    port,
    wipe: async () => {
      if (server.running()) throw new Error('redis: stop the instance before wiping its data');
      await rm(privateRedisDir(opts.dataDir), { recursive: true, force: true });
    },
  };
}
