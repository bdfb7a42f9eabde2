// What both scale benchmarks start: a fresh database of their own (bench/setup.ts startBench), the
// measured organization with 20 webhook targets, 5 other organizations with 4 targets each, and the
// ingest and api services as processes. No worker runs: the seeded events are settled already, and
// what ingestion enqueues stays queued until stop() removes the queues. stop() drops the database too.
import type { Db } from '@evds/db';
import { createProducer, createRedis } from '@evds/queue';
import { spawnService, type ServiceProcess } from '@evds/testkit';
import pg from 'pg';
import { insertWebhookTarget, provision, startBench, type Bench } from '../setup.ts';

export const MAIN_TARGETS = 20;
export const OTHER_ORGS = 5;
export const OTHER_TARGETS = 4;

export interface ScaleStack {
  bench: Bench;
  db: Db;
  main: { orgId: string; apiKey: string; targets: string[] };
  others: { orgId: string; targets: string[] }[];
  ingest: ServiceProcess;
  api: ServiceProcess | null;
  stop(): Promise<void>;
}

export async function startScaleStack(
  database: string,
  log: (m: string) => void,
  o: { api: boolean; env?: Record<string, string> },
): Promise<ScaleStack> {
  const bench = await startBench(database, log);
  const { db } = bench;
  // Nothing listens there: no worker runs, so no target is ever called.
  const url = (i: number) => `https://127.0.0.1:9/hook/${i}`;
  const ws = await provision(db, 'Scale');
  const targets: string[] = [];
  for (let i = 0; i < MAIN_TARGETS; i++)
    targets.push(await insertWebhookTarget(bench, ws.orgId, `scale ${i}`, url(i)));
  const others = [];
  for (let n = 1; n <= OTHER_ORGS; n++) {
    const other = await provision(db, `Other${n}`);
    const ids: string[] = [];
    for (let i = 0; i < OTHER_TARGETS; i++)
      ids.push(await insertWebhookTarget(bench, other.orgId, `other ${n}.${i}`, url(100 + i)));
    others.push({ orgId: other.orgId, targets: ids });
  }
  const env = { ...bench.env, ...o.env };
  const ingest = await spawnService('ingest', env);
  // The API's per-key rate limit is a policy, not capacity: raised so the timed reads never answer 429.
  const api = o.api ? await spawnService('api', { ...env, API_RATE_LIMIT: '1000000000' }) : null;
  const stack: ScaleStack = {
    bench,
    db,
    main: { orgId: ws.orgId, apiKey: ws.apiKey, targets },
    others,
    ingest,
    api,
    async stop() {
      await api?.kill('SIGTERM');
      await ingest.kill('SIGTERM');
      // What ingestion enqueued (no worker consumed it): only this run's prefix, nothing else.
      const redis = createRedis(bench.backing.redisUrl, { role: 'client' });
      const producer = createProducer(redis, env.REDIS_PREFIX);
      for (const kind of ['webhook', 'a2a'] as const)
        await producer
          .queue(kind)
          .obliterate({ force: true })
          .catch((err: unknown) => log(`could not remove the ${kind} queue: ${String(err)}`));
      await producer.close();
      redis.disconnect();
      await db.destroy();
      // Tens of gigabytes after a full run: dropped unless SCALE_KEEP_DB=1 (to look into it afterwards).
      if (process.env.SCALE_KEEP_DB !== '1') {
        const admin = new pg.Client({ connectionString: `${bench.backing.postgresUrl}/postgres` });
        await admin.connect();
        await admin.query(`drop database if exists ${database} with (force)`);
        await admin.end();
      }
      await bench.backing.stop();
    },
  };
  // A run that fails half-way still stops its services, removes its queues and drops its database.
  process.once('uncaughtException', (err) => {
    console.error(err);
    void stack
      .stop()
      .catch((e: unknown) => console.error(e))
      .finally(() => process.exit(1));
  });
  return stack;
}
