// The throughput-per-core targets the benchmark checks (issue 16, item 4): each figure as a ratio or
// a bound, all from the same run, with its threshold and whether it passes.

export interface Target {
  name: string;
  value: number | null;
  /** 'min': value must be at least the threshold; 'max': at most. */
  kind: 'min' | 'max';
  threshold: number;
  unit: string;
  pass: boolean;
  /** The same figure of the floors in the same run, by queue (bench/floor.ts). */
  floors?: { queue: string; value: number | null }[];
}

export interface TargetInputs {
  ingestPerSecond: number | null;
  pgbenchTps: number;
  drainPerSecond: number;
  e2eP99: number | null;
  openP99: number | null;
  /** The floors' figures from the same run: p99s at the same rates, and drain / ingest closed loop. */
  floors?: { queue: string; e2eP99: number | null; openP99: number | null; drainRatio: number | null }[];
  /** Peak RSS in MB per service that ran (null when it could not be read). */
  peakRssMb: Record<string, number | null>;
}

const RSS_MAX_MB = 200;

function target(name: string, value: number | null, kind: Target['kind'], threshold: number, unit = '') {
  const ok = value !== null && Number.isFinite(value);
  const pass = ok && (kind === 'min' ? value >= threshold : value <= threshold);
  return { name, value: ok ? value : null, kind, threshold, unit, pass };
}

const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);

/** Every target of item 4, in the order the issue lists them. */
export function throughputTargets(i: TargetInputs): Target[] {
  return [
    target('ingest closed loop / pgbench ceiling', ratio(i.ingestPerSecond, i.pgbenchTps), 'min', 0.8),
    {
      ...target('drain / ingest closed loop', ratio(i.drainPerSecond, i.ingestPerSecond), 'min', 1.0),
      floors: i.floors?.map((f) => ({ queue: f.queue, value: f.drainRatio })),
    },
    {
      ...target('end to end at 500/s, p99', i.e2eP99, 'max', 25, ' ms'),
      floors: i.floors?.map((f) => ({ queue: f.queue, value: f.e2eP99 })),
    },
    {
      ...target('ingest open loop at 1,000/s, p99', i.openP99, 'max', 10, ' ms'),
      floors: i.floors?.map((f) => ({ queue: f.queue, value: f.openP99 })),
    },
    ...Object.entries(i.peakRssMb).map(([service, mb]) =>
      target(`peak RSS, ${service}`, mb, 'max', RSS_MAX_MB, ' MB'),
    ),
  ];
}

/** A figure against the floors of its run: each floor's figure and the service's multiple of it. */
const againstFloors = (t: Target) =>
  (t.floors ?? [])
    .map((f) => {
      const times = ratio(t.value, f.value);
      const figure = f.value === null ? 'n/a' : `${f.value.toFixed(t.unit === '' ? 2 : 1)}${t.unit}`;
      return `${f.queue} ${figure}${times === null ? '' : ` (${times.toFixed(1)}x)`}`;
    })
    .join(', ');

/** One row per target: name, value against its threshold, PASS or FAIL, and where measured its floors. */
export function targetRows(targets: Target[]): string[][] {
  return targets.map((t) => {
    const digits = t.unit === '' ? 2 : 1;
    const value = t.value === null ? 'n/a' : `${t.value.toFixed(digits)}${t.unit}`;
    return [
      t.name,
      `${value} ${t.kind === 'min' ? '>=' : '<='} ${t.threshold}${t.unit}`,
      t.pass ? 'PASS' : 'FAIL',
      ...(t.floors?.length ? [`floor: ${againstFloors(t)}`] : []),
    ];
  });
}
