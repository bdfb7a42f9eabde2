import type { Backing } from './backing.ts';
import { borrowed } from './backing.ts';
import { startRedisContainer } from './containers.ts';
import { climbLocalRungs } from './ladder.ts';
import type { ServiceOptions } from './postgres-ladder.ts';
import { findRedisServer, startPrivateRedis } from './private-redis.ts';
import { probeRedis } from './probes.ts';
import { redactUrl } from './urls.ts';

export async function ensureRedis(opts: ServiceOptions): Promise<Backing> {
  const { log } = opts;
  const fromEnv = opts.env.REDIS_URL;
  if (fromEnv) {
    log(`redis: using REDIS_URL (${redactUrl(fromEnv)})`);
    return borrowed(fromEnv);
  }

  const probe = await probeRedis(opts.defaultPort);
  if (probe.ok) {
    log(`redis: using server on 127.0.0.1:${opts.defaultPort}`);
    return borrowed(`redis://127.0.0.1:${opts.defaultPort}`);
  }
  log(`redis: no server answering PING on 127.0.0.1:${opts.defaultPort} (${probe.reason})`);

  return climbLocalRungs({
    service: 'redis',
    binariesName: 'redis-server',
    aptPackage: 'redis-server',
    findBinaries: findRedisServer,
    startPrivate: (redisServer) =>
      startPrivateRedis({ dataDir: opts.dataDir, preferredPort: opts.privatePort, redisServer, log }),
    startContainer: () => startRedisContainer({ log, keep: opts.keepContainers }),
    log,
  });
}
