// Delivery attempt statistics read from attempt_rollups (migration 2026-11-27T1100): counts by outcome
// and duration percentiles of an organization over a window, from a few hundred counter rows whatever
// the number of attempts. Also the histogram arithmetic the time series shares, and pruning.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.ts';

/** The rollup grains in seconds; window starts align to the finest. Fixed by the migration. */
export const ROLLUP_GRAINS = [900, 3600, 86400] as const;
export const FINEST_GRAIN_SECONDS = ROLLUP_GRAINS[0];
/** The histogram: bucket i holds durations d with d + 1 in [RATIO^i, RATIO^(i+1)); the last takes the rest. */
const HIST = 160;
const RATIO = 1.1;
/**
 * A percentile read from the histogram is within this fraction of (exact + 1 ms) of percentile_cont over
 * the same attempts, before rounding to whole milliseconds (sqrt(1.1) - 1), for durations under about
 * 63 minutes (the last bucket's start).
 */
export const LATENCY_RESOLUTION = Math.sqrt(RATIO) - 1;

/**
 * Sums the histograms of the selected rows, element by element, sent as comma-separated text: parsing
 * that is several times faster than parsing a 160-element array (null when no row was selected).
 */
export const histogramSum: RawBuilder<string | null> = sql.raw(
  `nullif(array_to_string(array[${Array.from({ length: HIST }, (_, i) => `sum(latency[${i + 1}])`).join(', ')}], ','), '')`,
);

/** The counts of a histogramSum. */
export function parseHistogram(text: string | null): number[] {
  return text ? text.split(',').map(Number) : [];
}

/** The integers d of bucket i, as [lowest, highest]. */
function bucketRange(i: number): [number, number] {
  const lo = Math.max(0, Math.ceil(RATIO ** i - 1e-9) - 1);
  const hi = i === HIST - 1 ? lo : Math.max(lo, Math.ceil(RATIO ** (i + 1) - 1e-9) - 2);
  return [lo, hi];
}

/** The value taken for bucket i: its geometric middle, within the integers it can hold. */
function bucketValue(i: number): number {
  const [lo, hi] = bucketRange(i);
  return Math.min(hi, Math.max(lo, RATIO ** (i + 0.5) - 1));
}

/**
 * Percentiles as percentile_cont computes them (linear interpolation between the values at the two
 * neighbouring ranks), each value taken from the histogram, rounded to whole ms; null without attempts.
 */
export function histogramPercentiles(
  counts: readonly (number | null)[] | null,
  ps: readonly number[],
): (number | null)[] {
  const c = (counts ?? []).map((x) => x ?? 0);
  const n = c.reduce((a, b) => a + b, 0);
  if (n === 0) return ps.map(() => null);
  const atRank = (k: number) => {
    let seen = 0;
    for (let i = 0; i < c.length; i++) {
      seen += c[i] ?? 0;
      if (seen > k) return bucketValue(i);
    }
    return bucketValue(c.length - 1);
  };
  return ps.map((p) => {
    const pos = p * (n - 1);
    const lo = atRank(Math.floor(pos));
    const hi = atRank(Math.ceil(pos));
    return Math.round(lo + (hi - lo) * (pos - Math.floor(pos)));
  });
}

export interface AttemptStats {
  /** The start actually used: `since` moved back to a multiple of 15 minutes in Unix time. */
  since: Date;
  attempts: { total: number; succeeded: number; failed: number };
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
}

const align = (ms: number, grainSeconds: number) =>
  Math.floor(ms / 1000 / grainSeconds) * grainSeconds * 1000;
const alignUp = (ms: number, grainSeconds: number) =>
  Math.ceil(ms / 1000 / grainSeconds) * grainSeconds * 1000;

/**
 * An organization's rollup rows of one grain from (or before) a bucket, as a range of the primary key
 * (org, grain, bucket). Written on the bucket alone, the range could be served by the bucket index that
 * pruning walks: for a window of an hour or less the planner may pick it, and read every tenant's rows
 * of that window to keep this one's. A comparison of the key's columns as a row only the key serves.
 */
export const rollupKeyFrom = (orgId: string, grain: number, bucket: Date) =>
  sql<boolean>`(org_id, grain_seconds, bucket_start) >= (${orgId}, ${grain}::int, ${bucket}::timestamptz)`;
export const rollupKeyBefore = (orgId: string, grain: number, bucket: Date) =>
  sql<boolean>`(org_id, grain_seconds, bucket_start) < (${orgId}, ${grain}::int, ${bucket}::timestamptz)`;

/**
 * The statement alone, so a test can EXPLAIN exactly what runs: [since, ∞) as quarter-hour rows up
 * to the next hour, hour rows up to the next day, then day rows (the current day's row holds every
 * attempt up to now), so at most 3 + 23 + 31 buckets, each summed over its shard rows.
 */
export function attemptStatsQuery(orgId: string, since: Date) {
  const start = align(since.getTime(), FINEST_GRAIN_SECONDS);
  const hour = alignUp(start, 3600);
  const day = alignUp(hour, 86400);
  const at = (ms: number) => new Date(ms);
  return {
    since: at(start),
    query: sql<{ succeeded: number; failed: number; latency: string | null }>`
      select coalesce(sum(succeeded), 0)::int8 as succeeded, coalesce(sum(failed), 0)::int8 as failed,
             ${histogramSum} as latency
        from (select succeeded, failed, latency from attempt_rollups
               where org_id = ${orgId} and grain_seconds = 900
                 and ${rollupKeyFrom(orgId, 900, at(start))} and ${rollupKeyBefore(orgId, 900, at(hour))}
              union all
              select succeeded, failed, latency from attempt_rollups
               where org_id = ${orgId} and grain_seconds = 3600
                 and ${rollupKeyFrom(orgId, 3600, at(hour))} and ${rollupKeyBefore(orgId, 3600, at(day))}
              union all
              select succeeded, failed, latency from attempt_rollups
               where org_id = ${orgId} and grain_seconds = 86400 and ${rollupKeyFrom(orgId, 86400, at(day))}) r`,
  };
}

/**
 * An organization's delivery attempts (webhook and a2a) started at or after `since` moved back to a
 * multiple of 15 minutes (the returned `since`): counts by outcome (succeeded: a 2xx with no error)
 * and duration percentiles from the rollup histogram (within LATENCY_RESOLUTION).
 */
export async function attemptStats(db: Db, orgId: string, since: Date): Promise<AttemptStats> {
  const q = attemptStatsQuery(orgId, since);
  const row = (await q.query.execute(db)).rows[0];
  const succeeded = row?.succeeded ?? 0;
  const failed = row?.failed ?? 0;
  const [p50 = null, p95 = null, p99 = null] = histogramPercentiles(
    parseHistogram(row?.latency ?? null),
    [0.5, 0.95, 0.99],
  );
  return {
    since: q.since,
    attempts: { total: succeeded + failed, succeeded, failed },
    latencyMs: { p50, p95, p99 },
  };
}

/**
 * Deletes the rollup rows of buckets that ended at or before `before`, at most `batch` rows per
 * statement (each its own short transaction), until none is left. Returns how many it deleted.
 */
export async function pruneAttemptRollups(db: Db, before: Date, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await sql`
      delete from attempt_rollups where ctid = any(array(
        select ctid from attempt_rollups
         where bucket_start < ${before}
           and bucket_start + grain_seconds * interval '1 second' <= ${before}
         limit ${batch}))`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    total += n;
    if (n < batch) return total;
  }
}
