// The benchmark's table (bench/run.ts): one row per figure of a run's result, as written to
// bench/results/<time>.json.
import { cpus } from 'node:os';
import { drainFloorRow, floorRows, type DrainFloor, type Floor } from './floor.ts';
import { r1, type LoadResult } from './setup.ts';
import type { RoundTrip } from './ceilings.ts';

type PerProcess = Record<string, number | undefined>;
const figures = ['accepted', 'elapsed', 'perSecond', 'p50', 'p99', 'max', 'errors'] as const;
/** What the load generator reports (bench/load.ts), less the ids it sent. */
type Load = Record<(typeof figures)[number], number | null>;
export const loadFigures = (l: LoadResult): Load =>
  Object.fromEntries(figures.map((f) => [f, l[f] ?? null])) as Load;

export interface BenchResult {
  ingestClosed: Load & { cpuMsPerItem: number };
  ingestOpen: Load;
  drain: { events: number; steadySeconds: number; perSecond: number; cpuMsPerItem: number };
  endToEnd: {
    rate: number;
    sent: number;
    arrived: number;
    p50: number | null;
    p99: number | null;
    answeredP50: number | null | undefined;
    answeredP99: number | null | undefined;
    cpuMsPerItem: PerProcess;
    writesPerItem: PerProcess;
    machineCores: { busy: number; steal: number };
  };
  pgbench: { tps: number; clients: number };
  roundTripUs: { backToBack: RoundTrip; spaced: RoundTrip };
  floors: Floor[];
  drainFloors: DrainFloor[];
  ratioToCeiling: number;
  peakRssMb: { ingest: number | null; worker: number | null };
}

const ms = (x: number | undefined) => `${x?.toFixed(3)} ms`;

export function benchRows(r: BenchResult): string[][] {
  const { ingestClosed: closed, ingestOpen: open, drain, endToEnd: e2e, roundTripUs: hop } = r;
  return [
    [
      'ingest closed loop, 64 connections',
      `${r1(closed.perSecond)} accepted/s`,
      `p50 ${r1(closed.p50)} ms, p99 ${r1(closed.p99)} ms, errors ${closed.errors}, ingest CPU ${closed.cpuMsPerItem.toFixed(3)} ms/item`,
    ],
    [
      'ingest open loop, 1,000/s',
      `${r1(open.perSecond)} accepted/s`,
      `p50 ${r1(open.p50)} ms, p99 ${r1(open.p99)} ms, max ${r1(open.max)} ms, errors ${open.errors}`,
    ],
    [
      `delivery drain, ${drain.events} backlog`,
      `${r1(drain.perSecond)} deliveries/s`,
      `after the first tenth: ${r1(drain.steadySeconds)} s, worker CPU ${drain.cpuMsPerItem.toFixed(3)} ms/delivery`,
    ],
    [
      `end to end, ${e2e.rate}/s`,
      `p50 ${r1(e2e.p50)} ms`,
      `p99 ${r1(e2e.p99)} ms (${e2e.arrived}/${e2e.sent} arrived); ingest's 202: p50 ${r1(e2e.answeredP50)} ms, p99 ${r1(e2e.answeredP99)} ms`,
    ],
    [
      'end to end, CPU per item',
      `ingest ${ms(e2e.cpuMsPerItem.ingest)}`,
      `worker ${ms(e2e.cpuMsPerItem.worker)}, Postgres ${ms(e2e.cpuMsPerItem.postgres)}, Redis ${ms(e2e.cpuMsPerItem.redis)}; machine ${e2e.machineCores.busy.toFixed(2)} of ${cpus().length} cores busy (${e2e.machineCores.steal.toFixed(2)} stolen)`,
    ],
    [
      'end to end, writes per item',
      `ingest ${e2e.writesPerItem.ingest?.toFixed(2)}`,
      `worker ${e2e.writesPerItem.worker?.toFixed(2)}, Postgres ${e2e.writesPerItem.postgres?.toFixed(2)}, Redis ${e2e.writesPerItem.redis?.toFixed(2)}`,
    ],
    ...r.floors.flatMap(floorRows),
    ...r.drainFloors.map(drainFloorRow),
    [
      `pgbench ceiling, ${r.pgbench.clients} clients`,
      `${r1(r.pgbench.tps)} tx/s`,
      `ingest/ceiling ${r.ratioToCeiling.toFixed(2)}`,
    ],
    [
      'one Redis round trip, client + server CPU',
      `back to back ${(hop.backToBack.clientUs + hop.backToBack.serverUs).toFixed(0)} µs`,
      `2 ms apart ${(hop.spaced.clientUs + hop.spaced.serverUs).toFixed(0)} µs (wall ${hop.backToBack.wallUs.toFixed(0)} / ${hop.spaced.wallUs.toFixed(0)} µs)`,
    ],
    ['peak RSS', `ingest ${r.peakRssMb.ingest} MB`, `worker ${r.peakRssMb.worker} MB`],
  ];
}
