// What the machine itself allows, measured in the benchmark's own run so that the service's figures
// can be read against it: the pgbench ceiling (the durable inserts Postgres takes with no service in
// the way) and the price of one round trip between two processes (bench/round-trip.ts).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, timeOrderedIdSql, type Bench } from './setup.ts';

/**
 * pgbench's transactions per second at `clients` connections for `seconds`: each one event row and its
 * usage record, one durable commit, as ingest's commit of a single item.
 */
export function pgbenchCeiling(
  bench: Bench,
  at: { orgId: string; targetId: string; clients: number; seconds: number },
): number {
  const payload = JSON.stringify({
    event_type: 'bench.event',
    order: { id: 1, total: '19.90' },
    note: 'x'.repeat(120),
  });
  const script = join(bench.tlsDir, 'insert.sql');
  writeFileSync(
    script,
    `with e as (insert into events (id, org_id, target_id, target_kind, event_type, status, payload, payload_size, next_attempt_at)
   values (${timeOrderedIdSql('clock_timestamp()')}, :org, :target, 'webhook', 'bench.event', 'QUEUED', convert_to(:payload, 'UTF8'), ${payload.length}, now())
   returning id, org_id)
 insert into usage_records (org_id, item_id, item_kind) select org_id, id, 'webhook' from e;\n`,
  );
  const url = new URL(bench.databaseUrl);
  const run = spawnSync(
    'pgbench',
    [
      ...['-n', '-M', 'prepared', '-c', String(at.clients), '-j', '2', '-T', String(at.seconds)],
      ...['-f', script, '-D', `org=${at.orgId}`, '-D', `target=${at.targetId}`, '-D', `payload=${payload}`],
      ...['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')],
      url.pathname.slice(1),
    ],
    { encoding: 'utf8', env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } },
  );
  return Number(/tps = ([\d.]+)/.exec(run.stdout)?.[1] ?? NaN);
}

export interface RoundTrip {
  /** Microseconds per round trip, wall clock. */
  wallUs: number;
  /** CPU microseconds per round trip: the Node client's and the Redis server's. */
  clientUs: number;
  serverUs: number;
}

/**
 * One Redis PING answered, as a Node process sees it: back to back, and one every 2 ms (the client
 * idles in between, as the services do between items at a moderate rate). Each item crosses a dozen
 * such hops end to end, so their price sets what an item costs the machine.
 */
export function roundTrip(redisUrl: string): { backToBack: RoundTrip; spaced: RoundTrip } {
  const run = spawnSync(process.execPath, ['bench/round-trip.ts', redisUrl], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`round-trip probe failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { backToBack: RoundTrip; spaced: RoundTrip };
}
