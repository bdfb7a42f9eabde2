// `/api/v1/usage` latency with 1,000,000 usage records: fills a scratch database (evds_bench_usage)
// with one organization's million records in the current month (one generate_series statement, plus
// 100,000 of another organization as noise), then times ~50 calls each of
//   - the naive count of the ledger over usage_org_created (what the route would do without the rollup),
//   - the rollup read the route does (usageSummary),
//   - GET /api/v1/usage over HTTP on a real api process,
// and what the rollup trigger costs an ingest transaction (single-row inserts, trigger on and off).
// Run: node bench/usage.ts (finds or starts Postgres and Redis like the other commands; the scratch
// database is dropped at the end).
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { provisionWorkspace } from '@evds/accounts';
import { createDb, migrateToLatest, usageSummary, type Db } from '@evds/db';
import { monthPeriod } from '@evds/domain';
import { createDatabaseIfMissing, ensureBacking } from '@evds/localenv';
import { spawnService } from '@evds/testkit';
import { sql } from 'kysely';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const RECORDS = Number(process.env.BENCH_USAGE_RECORDS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_USAGE_CALLS ?? 50);
const ROUND = 500;
const ROUNDS = 6;
const INSERTS = ROUND * ROUNDS;
const log = (m: string) => process.stderr.write(`bench-usage: ${m}\n`);

const backing = await ensureBacking({ dataDir: `${root}.data/bench`, log });
const admin = new pg.Client({ connectionString: `${backing.postgresUrl}/postgres` });
await admin.connect();
await admin.query('drop database if exists evds_bench_usage with (force)');
await admin.end();
const databaseUrl = await createDatabaseIfMissing(backing.postgresUrl, 'evds_bench_usage');
const db = createDb({ url: databaseUrl, poolSize: 4 });
await migrateToLatest(db);

const workspace = (slug: string) =>
  provisionWorkspace(db, {
    orgName: slug,
    slug,
    email: `${slug}@example.test`,
    userName: slug,
    password: randomBytes(9).toString('hex'),
    billingStatus: 'active',
  });
const ws = await workspace('bench-usage');
const noise = await workspace('bench-noise');

const now = new Date();
const period = monthPeriod(now);
const periodStart = new Date(period.start * 1000);
const elapsedSeconds = Math.max(1, Math.floor((now.getTime() - periodStart.getTime()) / 1000));

async function fill(orgId: string, n: number, tag: string): Promise<number> {
  const t = performance.now();
  await sql`
    insert into usage_records (org_id, item_id, item_kind, created_at)
    select ${orgId}, ${tag} || lpad(to_hex(i), 30, '0'), (array['webhook','mailbox','a2a'])[1 + i % 3],
           ${periodStart}::timestamptz + ((i % ${elapsedSeconds}) * interval '1 second')
      from generate_series(1, ${n}::int) as i`.execute(db);
  return performance.now() - t;
}
log(`inserting ${RECORDS.toLocaleString('en')} records`);
const fillMs = await fill(ws.orgId, RECORDS, 'aa');
await fill(noise.orgId, Math.min(100_000, RECORDS), 'bb');
await sql`vacuum analyze usage_records`.execute(db);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

async function timed(what: string, run: () => Promise<unknown>): Promise<{ what: string; ms: number[] }> {
  for (let i = 0; i < 5; i++) await run(); // warm caches and connections
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  return { what, ms };
}

const ledgerCount = (d: Db) =>
  sql<{ accepted: number; pending: number }>`
    select count(*) as accepted, count(*) filter (where reported_at is null) as pending
      from usage_records
     where org_id = ${ws.orgId} and created_at >= ${periodStart} and created_at < ${new Date(period.end * 1000)}`.execute(
    d,
  );

const ledgerTotal = (d: Db) =>
  sql<{ accepted: number }>`
    select count(*) as accepted from usage_records
     where org_id = ${ws.orgId} and created_at >= ${periodStart} and created_at < ${new Date(period.end * 1000)}`.execute(
    d,
  );

const results = [
  await timed('naive: count(*) alone over usage_org_created (index-only scan)', () => ledgerTotal(db)),
  await timed('naive: accepted and pending counts over usage_org_created', () => ledgerCount(db)),
  await timed('rollup: usageSummary (the route query)', () => usageSummary(db, ws.orgId, periodStart)),
];

// The route itself, over HTTP, on a real api process.
const api = await spawnService('api', {
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  DATABASE_URL: databaseUrl,
  REDIS_URL: backing.redisUrl,
  REDIS_PREFIX: `evdsbenchusage${randomBytes(3).toString('hex')}`,
  ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  HOST: '127.0.0.1',
  PORT: '0',
});
let body: unknown;
try {
  results.push(
    await timed('GET /api/v1/usage over HTTP', async () => {
      const res = await fetch(`${api.url}/api/v1/usage`, {
        headers: { authorization: `Bearer ${ws.apiKey}` },
      });
      body = await res.json();
      if (res.status !== 200) throw new Error(`usage answered ${res.status}: ${JSON.stringify(body)}`);
    }),
  );
} finally {
  await api.kill('SIGTERM');
}

// The rollup's cost to ingest: single-row inserts, one transaction each, with its trigger on and off,
// in alternating rounds so that other load on the machine hits both alike; the median round counts.
async function insertRound(tag: string): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < ROUND; i++)
    await sql`insert into usage_records (org_id, item_id, item_kind) values (${ws.orgId}, ${`${tag}-${i}`}, 'webhook')`.execute(
      db,
    );
  return ((performance.now() - t) / ROUND) * 1000;
}
const on: number[] = [];
const off: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  on.push(await insertRound(`on${round}`));
  await sql`alter table usage_records disable trigger usage_monthly_insert`.execute(db);
  off.push(await insertRound(`off${round}`));
  await sql`alter table usage_records enable trigger usage_monthly_insert`.execute(db);
}
const withTrigger = pct(on, 50);
const withoutTrigger = pct(off, 50);

const ledger = (await ledgerCount(db)).rows[0];
const rollup = await usageSummary(db, ws.orgId, periodStart);
await db.destroy();
const cleanup = new pg.Client({ connectionString: `${backing.postgresUrl}/postgres` });
await cleanup.connect();
await cleanup.query('drop database if exists evds_bench_usage with (force)');
await cleanup.end();

console.log(`\n\`/api/v1/usage\` latency with ${RECORDS.toLocaleString('en')} usage records`);
console.log(`(${CALLS} calls each after 5 warm-up calls; filled in ${(fillMs / 1000).toFixed(1)} s)\n`);
console.log('| what | median ms | p99 ms |');
console.log('|---|---|---|');
for (const r of results)
  console.log(`| ${r.what} | ${pct(r.ms, 50).toFixed(2)} | ${pct(r.ms, 99).toFixed(2)} |`);
console.log(
  `\nsingle-row usage insert (own transaction, median of ${ROUNDS} rounds of ${ROUND}): ${withTrigger.toFixed(0)} µs with the rollup trigger, ${withoutTrigger.toFixed(0)} µs without`,
);
console.log(
  `ledger ${String(ledger?.accepted)} records; rollup ${rollup.accepted_events} (the ${INSERTS} inserted with the trigger off are missing from it by construction); last answer ${JSON.stringify(body)}`,
);
