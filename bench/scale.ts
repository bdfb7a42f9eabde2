// The scale benchmark: the dashboard's reads, ingest and storage with SCALE_EVENTS (default 10,000,000)
// events in one organization among others' (10% more over 5 organizations), seeded in SQL over the
// last 60 days with one attempt and one usage record each. Phases: ingest closed loop on the empty
// database; seeding; VACUUM ANALYZE; ingest closed loop again on the full database (same connections
// and duration); every dashboard read timed over HTTP (p50/p99 against the 50 ms budget); storage.
// Prints tables and writes bench/results/scale-<time>.json. SCALE_MODE=retention runs the other
// benchmark instead: weeks of traffic at a compressed clock under record retention (scale/retention.ts).
// Run: ./scripts/bench.sh scale (pnpm bench:scale); SCALE_EVENTS=200000 for a quick run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { weekStart } from '@evds/db';
import { sql } from 'kysely';
import { timeReads } from './scale/reads.ts';
import { EVENT_TYPES, seedEvents, totalRows } from './scale/seed.ts';
import { startScaleStack } from './scale/stack.ts';
import { mb, storage } from './scale/storage.ts';
import { printTable, r1, root, runLoad } from './setup.ts';

if (process.env.SCALE_MODE === 'retention') {
  await import('./scale/retention.ts');
  process.exit(0);
}

const EVENTS = Number(process.env.SCALE_EVENTS ?? 10_000_000);
const DAYS = Number(process.env.SCALE_DAYS ?? 60);
const CHUNK = Number(process.env.SCALE_CHUNK ?? 250_000);
const INGEST_SECONDS = Number(process.env.SCALE_INGEST_SECONDS ?? process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 64;
const CALLS = Number(process.env.SCALE_READ_CALLS ?? 200);
const READ_BUDGET_SECONDS = Number(process.env.SCALE_READ_BUDGET_SECONDS ?? 60);
const BUDGET_MS = 50;
const log = (m: string) => process.stderr.write(`scale: ${m}\n`);

const stack = await startScaleStack('evds_bench_scale', log, { api: true });
const { db, main } = stack;

const load = (args: string[]) =>
  runLoad({ url: stack.ingest.url, key: main.apiKey, targets: main.targets, seconds: INGEST_SECONDS }, args);
/** Closed loop after a checkpoint and 3 s of the same load (not measured), so both runs start alike. */
async function ingestClosedLoop(label: string) {
  await sql`checkpoint`.execute(db);
  await load(['--mode', 'closed', '--connections', String(CONNECTIONS), '--seconds', '3']);
  log(`ingest closed loop, ${label}`);
  return load(['--mode', 'closed', '--connections', String(CONNECTIONS)]);
}

// ---- 1. ingest on the empty database ------------------------------------------------------------
const empty = await ingestClosedLoop('empty database');

// ---- 2. seeding ---------------------------------------------------------------------------------
const now = new Date();
const from = new Date(now.getTime() - DAYS * 86_400_000);
log(
  `seeding ${totalRows({ events: EVENTS, others: stack.others }).toLocaleString('en')} events over ${DAYS} days`,
);
const seeded = await seedEvents(
  db,
  {
    main: { orgId: main.orgId, targets: main.targets },
    others: stack.others,
    events: EVENTS,
    from,
    to: now,
    payloadSince: new Date(now.getTime() - 30 * 86_400_000),
    chunk: CHUNK,
  },
  log,
);
log('vacuum analyze');
const vacuumStart = performance.now();
await sql`vacuum analyze`.execute(db);
const vacuumSeconds = (performance.now() - vacuumStart) / 1000;

// ---- 3. ingest on the full database -------------------------------------------------------------
const full = await ingestClosedLoop('full database');
const ratio = (full.perSecond ?? 0) / (empty.perSecond ?? 1);

// ---- 4. the dashboard's reads -------------------------------------------------------------------
const deepOffset = Math.min(100_000, Math.floor(seeded.mainRows / 2));
const deep = await sql<{ id: string }>`
  select id from events where org_id = ${main.orgId}
   order by created_at desc, id desc offset ${deepOffset} limit 1`.execute(db);
if (!stack.api) throw new Error('the api is not running');
const reads = await timeReads(
  stack.api.url,
  main.apiKey,
  {
    targetId: main.targets[0] ?? '',
    eventType: EVENT_TYPES[0] ?? '',
    correlationId: seeded.correlationIds[0] ?? 'none',
    eventIds: seeded.sampleIds,
    deepId: deep.rows[0]?.id ?? null,
  },
  { calls: CALLS, warmup: 10, budgetSeconds: READ_BUDGET_SECONDS, log },
);

// ---- 5. storage ---------------------------------------------------------------------------------
const store = await storage(db);
const counted = await sql<{ n: string }>`select count(*) as n from events`.execute(db);
const eventRows = Number(counted.rows[0]?.n ?? 0);
const mainBytes = store.tables.reduce((s, t) => s + t.bytes, 0);
const rollupBytes = store.rollups.reduce((s, t) => s + t.bytes, 0);
const bytesPerEvent = (mainBytes + rollupBytes) / Math.max(1, eventRows);
// The weeks before this one hold seeded events only (ingest wrote this week's): bytes per seeded event.
const older = await storage(db, (f) => f !== null && f < weekStart(now));
const perSeeded = Object.fromEntries(
  older.tables.filter((t) => t.rows > 0).map((t) => [t.table, Math.round(t.bytes / t.rows)]),
);

await stack.stop();

// ---- report -------------------------------------------------------------------------------------
const result = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version },
  events: { main: seeded.mainRows, all: seeded.rows, days: DAYS },
  seed: {
    seconds: seeded.seconds,
    eventsPerSecond: seeded.rows / seeded.seconds,
    chunk: CHUNK,
    vacuumAnalyzeSeconds: vacuumSeconds,
  },
  ingest: {
    connections: CONNECTIONS,
    seconds: INGEST_SECONDS,
    empty: { perSecond: empty.perSecond, p50: empty.p50, p99: empty.p99, errors: empty.errors },
    full: { perSecond: full.perSecond, p50: full.p50, p99: full.p99, errors: full.errors },
    fullOverEmpty: ratio,
  },
  reads: reads.map((r) => ({ ...r, pass: r.p99 === null ? null : r.p99 <= BUDGET_MS })),
  storage: {
    ...store,
    eventRows,
    bytesPerEvent,
    bytesPerSeededRow: perSeeded,
    rowsPerDay: seeded.rows / DAYS,
  },
};
mkdirSync(`${root}bench/results`, { recursive: true });
const file = `${root}bench/results/scale-${result.at.replace(/[:.]/g, '-')}.json`;
writeFileSync(file, JSON.stringify(result, null, 2));

console.log(
  `\n${seeded.mainRows.toLocaleString('en')} events in one organization, ${seeded.rows.toLocaleString('en')} in all, ` +
    `over ${DAYS} days (weekly partitions); ` +
    `${result.machine.cpus} cores, Node ${process.version}`,
);
console.log(
  `seeded in ${r1(seeded.seconds)} s (${Math.round(result.seed.eventsPerSecond).toLocaleString('en')} events/s ` +
    `with their attempts and usage records), VACUUM ANALYZE ${r1(vacuumSeconds)} s\n`,
);
printTable([
  ['read', 'p50 ms', 'p99 ms', `p99 <= ${BUDGET_MS} ms`, 'calls', 'note'],
  ...result.reads.map((r) => [
    r.read,
    r1(r.p50),
    r1(r.p99),
    r.pass === null ? '-' : r.pass ? 'pass' : 'FAIL',
    String(r.calls),
    [r.total === undefined ? '' : `total ${r.total}`, r.note ?? ''].filter(Boolean).join('; '),
  ]),
]);
console.log('');
printTable([
  [
    `ingest closed loop, ${CONNECTIONS} connections, ${INGEST_SECONDS} s`,
    'accepted/s',
    'p50 ms',
    'p99 ms',
    'errors',
  ],
  ['empty database', r1(empty.perSecond), r1(empty.p50), r1(empty.p99), String(empty.errors)],
  ['full database', r1(full.perSecond), r1(full.p50), r1(full.p99), String(full.errors)],
  ['full / empty', ratio.toFixed(2), '', '', ratio >= 0.9 ? 'within 10%' : 'NOT within 10%'],
]);
console.log('');
printTable([
  ['table (all partitions, indexes, TOAST)', 'size', 'partitions', 'rows', 'bytes/row'],
  ...[...store.tables, ...store.rollups].map((t) => [
    t.table,
    mb(t.bytes),
    String(t.partitions),
    t.rows.toLocaleString('en'),
    t.rows > 0 ? String(Math.round(t.bytes / t.rows)) : '-',
  ]),
  ['database', mb(store.databaseBytes), '', '', ''],
]);
console.log(
  `\n${Math.round(bytesPerEvent)} bytes per event (the three tables and the rollups over ${eventRows.toLocaleString('en')} events); ` +
    `${Math.round(seeded.rows / DAYS).toLocaleString('en')} events a day seeded (each with an attempt and a usage record); ` +
    `at 1 item/s: 86,400 rows a day in each table, ${mb(bytesPerEvent * 86_400)} a day`,
);
if (Object.keys(perSeeded).length > 0)
  console.log(
    `per seeded row, in the weeks before this one (no ingested rows): ` +
      Object.entries(perSeeded)
        .map(([t, b]) => `${t} ${b} bytes`)
        .join(', '),
  );
console.log(`\nwritten to ${file}`);
process.exit(0);
