// The benchmark: every service as its own process against local Postgres and Redis on this machine,
// the load generator and the receiver in processes of their own. Prints one table and writes
// bench/results/<time>.json. Phases: webhook drain of a 50,000-event backlog; ingest closed loop
// (64 connections) and open loop (1,000/s) with the workers paused; end to end at 500/s; the pgbench
// ceiling (one event row and one usage record per durable transaction) at the same client count.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provisionWorkspace } from '@evds/accounts';
import { SERVICE_NODE_OPTIONS } from '@evds/config';
import { createDb, migrateToLatest } from '@evds/db';
import { newId } from '@evds/domain';
import { createDatabaseIfMissing, ensureBacking } from '@evds/localenv';
import { createProducer, createRedis } from '@evds/queue';
import { createSecretBox, newSigningSecret } from '@evds/secrets';
import { createTestCa, spawnService, type ServiceProcess } from '@evds/testkit';
import { sql } from 'kysely';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const DRAIN = Number(process.env.BENCH_DRAIN ?? 50_000);
const TARGETS = 16;
const CONNECTIONS = 64;
const log = (m: string) => process.stderr.write(`bench: ${m}\n`);

// ---- set-up: servers, a fresh database, a workspace, a receiver, the services ----------------------
const backing = await ensureBacking({ dataDir: `${root}.data/bench`, log });
const admin = new pg.Client({ connectionString: `${backing.postgresUrl}/postgres` });
await admin.connect();
await admin.query('drop database if exists evds_bench with (force)');
await admin.end();
const databaseUrl = await createDatabaseIfMissing(backing.postgresUrl, 'evds_bench');
const db = createDb({ url: databaseUrl, poolSize: 4 });
await migrateToLatest(db);

const encryptionKeys = `bench:${randomBytes(32).toString('base64')}`;
const box = createSecretBox(encryptionKeys);
const ws = await provisionWorkspace(db, {
  orgName: 'Bench',
  slug: 'bench',
  email: 'bench@example.test',
  userName: 'Bench',
  password: randomBytes(9).toString('hex'),
  billingStatus: 'exempt',
});

const ca = await createTestCa();
const tlsDir = join(tmpdir(), `evds-bench-${process.pid}`);
mkdirSync(tlsDir, { recursive: true });
writeFileSync(join(tlsDir, 'key.pem'), ca.server.key);
writeFileSync(join(tlsDir, 'cert.pem'), ca.server.cert);
const receiver = spawn(process.execPath, ['bench/receiver.ts'], {
  cwd: root,
  env: { PATH: process.env.PATH, TLS_KEY: join(tlsDir, 'key.pem'), TLS_CERT: join(tlsDir, 'cert.pem') },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const receiverPorts = await new Promise<{ port: number; controlPort: number }>((resolve) =>
  receiver.stdout.once('data', (d: Buffer) =>
    resolve(JSON.parse(d.toString()) as { port: number; controlPort: number }),
  ),
);
const control = (path: string) =>
  fetch(`http://127.0.0.1:${receiverPorts.controlPort}${path}`, { headers: { connection: 'close' } }).then(
    (r) => r.json() as Promise<{ count: number; arrivals?: Record<string, number> }>,
  );

const targetIds: string[] = [];
for (let i = 0; i < TARGETS; i++) {
  const id = newId();
  targetIds.push(id);
  await db
    .insertInto('targets')
    .values({
      id,
      org_id: ws.orgId,
      kind: 'webhook',
      name: `bench ${i}`,
      description: null,
      url: `https://127.0.0.1:${receiverPorts.port}/hook/${i}`,
      signing_secret: box.seal(newSigningSecret()),
      previous_signing_secret: null,
      inbound_secret: null,
      agent_card_url: null,
      a2a_interface: null,
      a2a_card: null,
      a2a_card_etag: null,
      a2a_card_fetched_at: null,
      a2a_auth_type: null,
      a2a_auth_token: null,
      deleted_at: null,
    })
    .execute();
}

const env = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  DATABASE_URL: databaseUrl,
  REDIS_URL: backing.redisUrl,
  REDIS_PREFIX: `evdsbench${randomBytes(3).toString('hex')}`,
  ENCRYPTION_KEYS: encryptionKeys,
  NODE_EXTRA_CA_CERTS: ca.caFile,
  // The per-target limit is a policy, not capacity: raised here so it never answers 429.
  INGEST_RATE_LIMIT: '1000000000',
  // As deployed (the image sets them); EVDS_BENCH_ENV_NODE_OPTIONS replaces them.
  NODE_OPTIONS: SERVICE_NODE_OPTIONS,
  PORT: '0',
  HOST: '127.0.0.1',
  ...Object.fromEntries(
    Object.entries(process.env)
      .filter(([k]) => k.startsWith('EVDS_BENCH_ENV_'))
      .map(([k, v]) => [k.slice(15), v]),
  ),
};
// Production refuses a private allow-list, and the receiver is on 127.0.0.1: the worker runs as 'test'.
const workerEnv = { ...env, NODE_ENV: 'test', NETGUARD_ALLOW_CIDRS: '127.0.0.0/8' };
const ingest = await spawnService('ingest', env);
let worker: ServiceProcess | undefined;
const peakRss = (p: ServiceProcess | undefined) => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p?.child.pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
};
let workerPeak: number | null;
/** CPU seconds (user + system) a process has used so far; /proc counts in ticks of 1/100 s. */
const cpuSeconds = (p: ServiceProcess | undefined) => {
  // Fields after the command name (which may hold spaces and parentheses): state is 3rd, utime 14th.
  const stat = readFileSync(`/proc/${p?.child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const countStatus = async (status: string) =>
  (await sql<{ n: string }>`select count(*) as n from events where status = ${status}`.execute(db)).rows[0]
    ?.n ?? '0';

// ---- 1. delivery drain ------------------------------------------------------------------------------
log(`seeding a backlog of ${DRAIN} events`);
const payload = JSON.stringify({
  event_type: 'bench.event',
  order: { id: 1, total: '19.90' },
  note: 'x'.repeat(120),
});
await sql`
  with e as (
    insert into events (id, org_id, target_id, target_kind, event_type, status, payload, payload_size, next_attempt_at)
    select md5(random()::text || g::text), ${ws.orgId}, (${sql.val(targetIds)}::text[])[1 + g % ${TARGETS}], 'webhook', 'bench.event', 'QUEUED',
           convert_to(${payload}, 'UTF8'), ${payload.length}, now() + interval '1 hour'
    from generate_series(1, ${DRAIN}) g
    returning id, org_id)
  insert into usage_records (org_id, item_id, item_kind) select org_id, id, 'webhook' from e`.execute(db);
const redis = createRedis(backing.redisUrl, { role: 'client' });
const producer = createProducer(redis, env.REDIS_PREFIX);
const seeded = await db.selectFrom('events').select('id').execute();
for (let i = 0; i < seeded.length; i += 5000)
  await producer.addBulk(
    'webhook',
    seeded.slice(i, i + 5000).map((e) => ({ jobId: e.id, data: { eventId: e.id } })),
  );
log('draining');
const drainStart = performance.now();
worker = await spawnService('delivery-worker', workerEnv);
const drainCpuStart = cpuSeconds(worker);
while (Number(await countStatus('DELIVERED')) < DRAIN) await new Promise((r) => setTimeout(r, 100));
const drainSeconds = (performance.now() - drainStart) / 1000;
// Worker CPU per delivery: what one core buys, whatever else shares the machine.
const drainCpuMs = ((cpuSeconds(worker) - drainCpuStart) * 1000) / DRAIN;
workerPeak = peakRss(worker);
await worker.kill('SIGTERM');

// ---- 2 and 3. ingest, closed and open loop (workers paused) ---------------------------------------
function load(args: string[]): Record<string, number | null> & { sent?: Record<string, number> } {
  const r = spawnSync(
    process.execPath,
    [
      'bench/load.ts',
      '--url',
      ingest.url,
      '--key',
      ws.apiKey,
      '--targets',
      targetIds.join(','),
      '--seconds',
      String(SECONDS),
      ...args,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`load generator failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, number | null>;
}
log('ingest closed loop');
const closedCpuStart = cpuSeconds(ingest);
const closed = load(['--mode', 'closed', '--connections', String(CONNECTIONS)]);
const closedCpuMs = ((cpuSeconds(ingest) - closedCpuStart) * 1000) / ((closed.perSecond ?? 0) * SECONDS);
log('ingest open loop');
const open = load(['--mode', 'open', '--rate', '1000', '--connections', String(CONNECTIONS)]);

// ---- 4. end to end at 500/s --------------------------------------------------------------------------
await producer.queue('webhook').drain(true);
await sql`update events set status = 'FAILED', final_reason = 'bench reset', next_attempt_at = null where status in ('QUEUED','RETRYING')`.execute(
  db,
);
await control('/reset');
worker = await spawnService('delivery-worker', workerEnv);
// A freshly started worker opens its connections (TLS to the receiver, Postgres, Redis) and warms
// up on its first requests: 3 s of the same load first, not measured, so the figures are steady state.
load(['--mode', 'open', '--rate', '500', '--connections', String(CONNECTIONS), '--seconds', '3']);
await control('/reset');
log('end to end at 500/s');
const e2e = load(['--mode', 'open', '--rate', '500', '--connections', String(CONNECTIONS), '--ids']);
const sent = e2e.sent ?? {};
const deadline = Date.now() + 30_000;
let arrivals: Record<string, number> = {};
while (Date.now() < deadline) {
  arrivals = (await control('/arrivals')).arrivals ?? {};
  if (Object.keys(sent).every((id) => id in arrivals)) break;
  await new Promise((r) => setTimeout(r, 250));
}
const e2eLatencies = Object.entries(sent)
  .filter(([id]) => id in arrivals)
  .map(([id, at]) => (arrivals[id] ?? 0) - at)
  .sort((a, b) => a - b);
const pct = (xs: number[], p: number) =>
  xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? null;
const ingestPeak = peakRss(ingest);
workerPeak = Math.max(workerPeak ?? 0, peakRss(worker) ?? 0);

// ---- 5. the pgbench ceiling -------------------------------------------------------------------------
log('pgbench ceiling');
const script = join(tlsDir, 'insert.sql');
writeFileSync(
  script,
  `with e as (insert into events (id, org_id, target_id, target_kind, event_type, status, payload, payload_size, next_attempt_at)
   values (md5(random()::text || clock_timestamp()::text), :org, :target, 'webhook', 'bench.event', 'QUEUED', convert_to(:payload, 'UTF8'), ${payload.length}, now())
   returning id, org_id)
 insert into usage_records (org_id, item_id, item_kind) select org_id, id, 'webhook' from e;\n`,
);
const url = new URL(databaseUrl);
const pgbench = spawnSync(
  'pgbench',
  [
    '-n',
    '-M',
    'prepared',
    '-c',
    String(CONNECTIONS),
    '-j',
    '2',
    '-T',
    String(SECONDS),
    '-f',
    script,
    '-D',
    `org=${ws.orgId}`,
    '-D',
    `target=${targetIds[0]}`,
    '-D',
    `payload=${payload}`,
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    decodeURIComponent(url.username || 'postgres'),
    url.pathname.slice(1),
  ],
  { encoding: 'utf8', env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } },
);
const ceiling = Number(/tps = ([\d.]+)/.exec(pgbench.stdout)?.[1] ?? NaN);

// ---- report -----------------------------------------------------------------------------------------
await worker.kill('SIGTERM');
await ingest.kill('SIGTERM');
receiver.kill('SIGTERM');
await producer.close();
redis.disconnect();
await db.destroy();
await backing.stop();

const r1 = (x: number | null | undefined) =>
  x === null || x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(1);
const result = {
  at: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  rateLimit: 'INGEST_RATE_LIMIT raised to 1e9 (a policy, not capacity); load spread over 16 targets',
  ingestClosed: { ...closed, cpuMsPerItem: closedCpuMs },
  ingestOpen: { ...open },
  drain: { events: DRAIN, seconds: drainSeconds, perSecond: DRAIN / drainSeconds, cpuMsPerItem: drainCpuMs },
  endToEnd: {
    sent: Object.keys(sent).length,
    arrived: e2eLatencies.length,
    p50: pct(e2eLatencies, 50),
    p99: pct(e2eLatencies, 99),
  },
  pgbench: { tps: ceiling, clients: CONNECTIONS },
  ratioToCeiling: (closed.perSecond ?? 0) / ceiling,
  peakRssMb: { ingest: ingestPeak, worker: workerPeak },
};
delete (result.endToEnd as { sent?: unknown }).sent;
mkdirSync(`${root}bench/results`, { recursive: true });
const file = `${root}bench/results/${result.at.replace(/[:.]/g, '-')}.json`;
writeFileSync(
  file,
  JSON.stringify({ ...result, endToEnd: { ...result.endToEnd, sent: Object.keys(sent).length } }, null, 2),
);
const rows: [string, string, string][] = [
  [
    'ingest closed loop, 64 connections',
    `${r1(closed.perSecond)} accepted/s`,
    `p50 ${r1(closed.p50)} ms, p99 ${r1(closed.p99)} ms, errors ${closed.errors}, ingest CPU ${closedCpuMs.toFixed(3)} ms/item`,
  ],
  [
    'ingest open loop, 1,000/s',
    `${r1(open.perSecond)} accepted/s`,
    `p50 ${r1(open.p50)} ms, p99 ${r1(open.p99)} ms, max ${r1(open.max)} ms, errors ${open.errors}`,
  ],
  [
    `delivery drain, ${DRAIN} backlog`,
    `${r1(DRAIN / drainSeconds)} deliveries/s`,
    `${r1(drainSeconds)} s, worker CPU ${drainCpuMs.toFixed(3)} ms/delivery`,
  ],
  [
    'end to end, 500/s',
    `p50 ${r1(pct(e2eLatencies, 50))} ms`,
    `p99 ${r1(pct(e2eLatencies, 99))} ms (${e2eLatencies.length}/${Object.keys(sent).length} arrived)`,
  ],
  [
    'pgbench ceiling, 64 clients',
    `${r1(ceiling)} tx/s`,
    `ingest/ceiling ${result.ratioToCeiling.toFixed(2)}`,
  ],
  ['peak RSS', `ingest ${ingestPeak} MB`, `worker ${workerPeak} MB`],
];
const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
console.log(
  `\n${result.rateLimit}; ${SECONDS} s phases; ${result.machine.cpus} cores, Node ${process.version}`,
);
for (const r of rows) console.log(`${r[0].padEnd(w[0] ?? 0)}  ${r[1].padEnd(w[1] ?? 0)}  ${r[2]}`);
console.log(`\nwritten to ${file}`);
process.exit(0);
