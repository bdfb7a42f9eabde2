import type { Backing, Log } from './backing.ts';
import { borrowed } from './backing.ts';
import { startPostgresContainer } from './containers.ts';
import { climbLocalRungs } from './ladder.ts';
import { findPostgresBinaries, startPrivatePostgres } from './private-postgres.ts';
import { probePostgres } from './probes.ts';
import { databaseUrlOf, redactUrl, serverUrlOf } from './urls.ts';

export interface ServiceOptions {
  dataDir: string;
  log: Log;
  env: Record<string, string | undefined>;
  defaultPort: number;
  privatePort: number;
  keepContainers: boolean;
}

export async function ensurePostgres(opts: ServiceOptions): Promise<Backing> {
  const { log } = opts;
  const fromEnv = opts.env.DATABASE_URL;
  if (fromEnv) {
    const url = serverUrlOf(fromEnv);
    log(`postgres: using DATABASE_URL (${redactUrl(url)})`);
    return borrowed(url);
  }

  const shared = `postgres://postgres@127.0.0.1:${opts.defaultPort}`;
  const probe = await probePostgres(databaseUrlOf(shared, 'postgres'));
  if (probe.ok) {
    log(`postgres: using server on 127.0.0.1:${opts.defaultPort}`);
    return borrowed(shared);
  }
  log(`postgres: no trust-auth server for user postgres on 127.0.0.1:${opts.defaultPort} (${probe.reason})`);

  return climbLocalRungs({
    service: 'postgres',
    binariesName: 'initdb/pg_ctl',
    aptPackage: 'postgresql',
    findBinaries: findPostgresBinaries,
    startPrivate: (binaries) =>
      startPrivatePostgres({ dataDir: opts.dataDir, preferredPort: opts.privatePort, binaries, log }),
    startContainer: () => startPostgresContainer({ log, keep: opts.keepContainers }),
    log,
  });
}
