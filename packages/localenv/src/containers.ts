import type { Backing, Log } from './backing.ts';
import { borrowed, once } from './backing.ts';

export interface ContainerOptions {
  log: Log;
  // Containers normally die with this process (Ryuk reaps them). A CLI whose URLs must outlive it
  // asks for reusable containers instead: Ryuk ignores them and the next run finds them again.
  keep: boolean;
}

// Imported lazily: testcontainers pulls in dockerode, ssh2 and friends, which only the last rung needs.
async function load() {
  return import('testcontainers');
}

export async function startPostgresContainer({ log, keep }: ContainerOptions): Promise<Backing> {
  const { GenericContainer, Wait } = await load();
  let container = new GenericContainer('postgres:16')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    // The entrypoint starts a temporary server for init scripts first; the second line is the real one.
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2));
  if (keep) container = container.withReuse();
  const started = await container.start();
  const url = `postgres://postgres@${started.getHost()}:${started.getMappedPort(5432)}`;
  log(`postgres: started container postgres:16 at ${url}${keep ? ' (kept after exit)' : ''}`);
  if (keep) return borrowed(url);
  return { url, stop: once(async () => void (await started.stop())) };
}

export async function startRedisContainer({ log, keep }: ContainerOptions): Promise<Backing> {
  const { GenericContainer, Wait } = await load();
  let container = new GenericContainer('redis:7')
    .withCommand(['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'])
    .withExposedPorts(6379)
    .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/));
  if (keep) container = container.withReuse();
  const started = await container.start();
  const url = `redis://${started.getHost()}:${started.getMappedPort(6379)}`;
  log(`redis: started container redis:7 at ${url}${keep ? ' (kept after exit)' : ''}`);
  if (keep) return borrowed(url);
  return { url, stop: once(async () => void (await started.stop())) };
}
