// The retention benchmark (SCALE_MODE=retention ./scripts/bench.sh scale): weeks of traffic at a
// compressed clock. Day by simulated day (SCALE_SIM_DAYS, default 56) it inserts a day's events in SQL
// (SCALE_DAY_EVENTS, default 100,000 for the main organization plus 10% for others, each with an
// attempt and a usage record), drops payloads past payload retention, vacuums the rollup tables, then
// runs the partition maintenance at the simulated time (record retention SCALE_RETENTION_DAYS, default
// 14), both as the worker's retention task runs them (dropPayloads, keepPartitions), and prints the
// sizes: they stop growing once retention is reached. Meanwhile a probe posts items to the real ingest service at
// SCALE_PROBE_RATE (default 200/s); its latency is printed for the requests in flight during each
// maintenance call, during a quiet second before it, and over the whole run by phase.
// The probe's items land at the real time. The simulated days end before the current week, so they
// fill its partition alone ("live"), which the simulated clock never drops; the table columns leave
// it out, the database column holds everything.
import { mkdirSync, writeFileSync } from 'node:fs';
import { weekStart } from '@evds/db';
import { dropPayloads, keepPartitions } from '@evds/delivery';
import { sql } from 'kysely';
import { printTable, r1, root } from '../setup.ts';
import { latencies, shown, startProbe, summary, type LatencySummary, type Window } from './probe-run.ts';
import { seedEvents } from './seed.ts';
import { startScaleStack } from './stack.ts';
import { MAIN_TABLES, mb, storage, tableSize } from './storage.ts';

const DAY = 86_400_000;
const SIM_DAYS = Number(process.env.SCALE_SIM_DAYS ?? 56);
const DAY_EVENTS = Number(process.env.SCALE_DAY_EVENTS ?? 100_000);
const RETENTION_DAYS = Number(process.env.SCALE_RETENTION_DAYS ?? 14);
const PAYLOAD_DAYS = Number(process.env.SCALE_PAYLOAD_DAYS ?? 7);
const PROBE_RATE = Number(process.env.SCALE_PROBE_RATE ?? 200);
const QUIET_MS = 1000;
const log = (m: string) => process.stderr.write(`scale-retention: ${m}\n`);

const stack = await startScaleStack('evds_bench_retention', log, {
  api: false,
  env: {
    EVENT_RETENTION_SECONDS: String(RETENTION_DAYS * 86_400),
    PAYLOAD_RETENTION_SECONDS: String(PAYLOAD_DAYS * 86_400),
  },
});
const { db, main } = stack;
// keepPartitions reports what it did to the benchmark, not to a log.
const quiet = { info: () => undefined } as unknown as Parameters<typeof keepPartitions>[1];
const probe = startProbe({
  url: stack.ingest.url,
  key: main.apiKey,
  targets: main.targets,
  rate: PROBE_RATE,
});

// ---- phases: windows of wall-clock time the probe's answers are matched against --------------------
type Phase = 'insert' | 'payloads' | 'vacuum' | 'quiet' | 'partitions';
const windows: (Window & { day: number; phase: Phase })[] = [];
async function phase<T>(day: number, name: Phase, run: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await run();
  } finally {
    windows.push({ day, phase: name, start, end: Date.now() });
  }
}

/** "3 (2026-10-05)": how many partitions were dropped, and the weeks they held. */
const droppedWeeks = (names: string[]) => {
  if (names.length === 0) return '-';
  const weeks = [...new Set(names.map((n) => /_p(\d{4})(\d{2})(\d{2})$/.exec(n)?.slice(1).join('-') ?? n))];
  return `${names.length} (${weeks.length > 2 ? `${weeks[0]} .. ${weeks.at(-1)}` : weeks.join(', ')})`;
};

// ---- the simulated days ---------------------------------------------------------------------------
const liveFrom = weekStart(new Date());
const firstDay = liveFrom.getTime() - SIM_DAYS * DAY;
const simulated = (from: Date | null) => from === null || from < liveFrom;
const rollupTables = (await storage(db)).rollups.map((t) => t.table);
interface DayRow {
  day: string;
  bytes: Record<string, number>;
  rollupBytes: number;
  liveBytes: number;
  databaseBytes: number;
  eventPartitions: number;
  maintenanceMs: number;
  dropped: string[];
  rollupRowsPruned: number;
  error?: string;
  duringMaintenance: LatencySummary;
  quiet: LatencySummary;
}
const days: DayRow[] = [];
console.log(
  [
    'day',
    ...MAIN_TABLES,
    'rollups',
    'live',
    'database',
    'simulated event partitions',
    'maintenance ms',
    'partitions dropped (weeks)',
    'ingest during maintenance p50/p99/max ms (n)',
    'quiet second before it',
  ].join(' | '),
);
for (let d = 0; d < SIM_DAYS; d++) {
  const dayStart = new Date(firstDay + d * DAY);
  const simNow = new Date(dayStart.getTime() + DAY);
  await phase(d, 'insert', () =>
    seedEvents(db, {
      main: { orgId: main.orgId, targets: main.targets },
      others: stack.others,
      events: DAY_EVENTS,
      from: dayStart,
      to: simNow,
      payloadSince: dayStart,
      chunk: 250_000,
      firstRow: d * 10_000_000,
    }),
  );
  await phase(d, 'payloads', async () => {
    // A simulated day's payloads may take more than one run of 100,000.
    const before = new Date(simNow.getTime() - PAYLOAD_DAYS * DAY);
    for (let i = 0; i < 20 && (await dropPayloads(db, before)) === 100_000; i++);
  });
  // Autovacuum visits a table about once a minute at most, many times in a real day but hardly once
  // in a simulated one: the rollups' dead rows (their counters are updated in place) are vacuumed here
  // instead, each simulated day, so their size is what a real day would leave.
  if (rollupTables.length > 0)
    await phase(d, 'vacuum', () => sql`vacuum ${sql.join(rollupTables.map((t) => sql.id(t)))}`.execute(db));
  await phase(d, 'quiet', () => new Promise((r) => setTimeout(r, QUIET_MS)));
  // A failed call is shown in its row and the run goes on (the service's maintenance tries again on
  // its next run, as this loop does the next simulated day).
  let error: string | undefined;
  let rollupRowsPruned = 0;
  const maintenanceStart = performance.now();
  const dropped = await phase(d, 'partitions', async () => {
    try {
      const upkeep = await keepPartitions(db, quiet, RETENTION_DAYS * 86_400, simNow);
      rollupRowsPruned = upkeep.prunedRollupRows;
      return upkeep.dropped;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      return [];
    }
  });
  const maintenanceMs = performance.now() - maintenanceStart;
  // The probe writes its lines every 200 ms: wait for those of the maintenance window.
  await new Promise((r) => setTimeout(r, 400));
  const store = await storage(db, simulated);
  let liveBytes = 0;
  for (const t of MAIN_TABLES) liveBytes += (await tableSize(db, t, (from) => !simulated(from))).bytes;
  const ofDay = (p: Phase) => windows.filter((w) => w.day === d && w.phase === p);
  const row: DayRow = {
    day: dayStart.toISOString().slice(0, 10),
    bytes: Object.fromEntries(store.tables.map((t) => [t.table, t.bytes])),
    rollupBytes: store.rollups.reduce((s, t) => s + t.bytes, 0),
    liveBytes,
    databaseBytes: store.databaseBytes,
    eventPartitions: store.tables[0]?.partitions ?? 0,
    maintenanceMs,
    dropped,
    rollupRowsPruned,
    ...(error ? { error } : {}),
    duringMaintenance: summary(latencies(probe.samples, ofDay('partitions'))),
    quiet: summary(latencies(probe.samples, ofDay('quiet'))),
  };
  days.push(row);
  console.log(
    [
      row.day,
      ...store.tables.map((t) => mb(t.bytes)),
      mb(row.rollupBytes),
      mb(liveBytes),
      mb(row.databaseBytes),
      String(row.eventPartitions),
      r1(maintenanceMs),
      droppedWeeks(dropped) + (error ? ` FAILED: ${error}` : ''),
      shown(row.duringMaintenance),
      shown(row.quiet),
    ].join(' | '),
  );
}

await probe.stop();
const liveRows = await db
  .selectFrom('events')
  .select((eb) => eb.fn.countAll<string>().as('n'))
  .where('created_at', '>=', liveFrom)
  .executeTakeFirstOrThrow();
await stack.stop();

// ---- report ---------------------------------------------------------------------------------------
const maintenance = windows.filter((w) => w.phase === 'partitions');
const byPhase = [
  ...(['insert', 'payloads', 'vacuum', 'quiet', 'partitions'] as const).map((p) => ({
    phase: p,
    ...summary(
      latencies(
        probe.samples,
        windows.filter((w) => w.phase === p),
      ),
    ),
  })),
  { phase: 'not during maintenance', ...summary(latencies(probe.samples, maintenance, false)) },
];
const failed = probe.samples.filter(([, , ok]) => ok !== 1).length;
const result = {
  at: new Date().toISOString(),
  simulated: {
    days: SIM_DAYS,
    eventsPerDay: DAY_EVENTS,
    retentionDays: RETENTION_DAYS,
    payloadDays: PAYLOAD_DAYS,
  },
  probe: { rate: PROBE_RATE, requests: probe.samples.length, failed, liveRows: Number(liveRows.n) },
  days,
  ingestByPhase: byPhase,
};
mkdirSync(`${root}bench/results`, { recursive: true });
const file = `${root}bench/results/scale-retention-${result.at.replace(/[:.]/g, '-')}.json`;
writeFileSync(file, JSON.stringify(result, null, 2));

const total = (r: DayRow) => Object.values(r.bytes).reduce((s, b) => s + b, 0) + r.rollupBytes;
console.log(
  `\nend of each simulated week (record retention ${RETENTION_DAYS} days, payloads ${PAYLOAD_DAYS} days, ` +
    `${DAY_EVENTS.toLocaleString('en')} events a day plus 10% for other organizations; without the live partition):`,
);
printTable([
  ['week', 'last day', ...MAIN_TABLES, 'rollups', 'tables + rollups', 'database (all)'],
  ...days
    .filter((_, i) => i % 7 === 6 || i === days.length - 1)
    .map((r, i) => [
      String(i + 1),
      r.day,
      ...MAIN_TABLES.map((t) => mb(r.bytes[t] ?? 0)),
      mb(r.rollupBytes),
      mb(total(r)),
      mb(r.databaseBytes),
    ]),
]);
console.log(
  `\ningest probe at ${PROBE_RATE}/s (${probe.samples.length} requests, ${failed} not accepted), latency by phase:`,
);
printTable([
  ['phase', 'requests', 'p50 ms', 'p99 ms', 'max ms'],
  ...byPhase.map((p) => [p.phase, String(p.n), r1(p.p50), r1(p.p99), r1(p.max)]),
]);
console.log(
  `\n${Number(liveRows.n).toLocaleString('en')} probe items in the live partition (real time, never dropped)`,
);
console.log(`written to ${file}`);
