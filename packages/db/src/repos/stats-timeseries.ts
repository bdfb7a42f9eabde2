// The delivery attempt time series of GET /api/v1/stats/timeseries, read from attempt_rollups: each
// bucket sums the rollup rows of the largest grain that divides it (15m from quarter rows, 1h and 6h
// from hour rows, 1d from day rows), so a 7d series in 6h buckets reads 168 hours' rows, never attempts.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.ts';
import {
  histogramPercentiles,
  histogramSum,
  parseHistogram,
  ROLLUP_GRAINS,
  rollupKeyBefore,
  rollupKeyFrom,
} from './attempt-stats.ts';

export interface AttemptBucket {
  /** Unix seconds: the bucket is [start, start + bucket seconds). */
  start: number;
  succeeded: number;
  failed: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface TimeseriesRange {
  since: number;
  last: number;
  bucketSeconds: number;
}

interface Row {
  start: number;
  succeeded: number;
  failed: number;
  latency: string | null;
}

/** The rollup grain a bucket is summed from; a bucket size no grain divides is a programming error. */
export function rollupGrainFor(bucketSeconds: number): number {
  const grain = [...ROLLUP_GRAINS].reverse().find((g) => bucketSeconds % g === 0);
  if (grain === undefined) throw new Error(`no rollup grain divides a ${bucketSeconds}s bucket`);
  return grain;
}

/** The statement alone, so a test can EXPLAIN exactly what runs. */
export function attemptTimeseriesQuery(orgId: string, range: TimeseriesRange): RawBuilder<Row> {
  const { since, last, bucketSeconds: b } = range;
  const grain = rollupGrainFor(b);
  return sql<Row>`
    select s.start::float8 as start, coalesce(r.succeeded, 0)::int8 as succeeded,
           coalesce(r.failed, 0)::int8 as failed, r.latency
      from generate_series(${since}::bigint, ${last}::bigint, ${b}::bigint) as s(start)
      left join (
        select floor(extract(epoch from bucket_start) / ${b}::bigint)::bigint * ${b}::bigint as start,
               sum(succeeded) as succeeded, sum(failed) as failed, ${histogramSum} as latency
          from attempt_rollups
         where org_id = ${orgId} and grain_seconds = ${grain}::int
           and ${rollupKeyFrom(orgId, grain, new Date(since * 1000))}
           and ${rollupKeyBefore(orgId, grain, new Date((last + b) * 1000))}
         group by 1
      ) r on r.start = s.start
     order by s.start`;
}

/**
 * Delivery attempts (webhook and a2a) of one organization started in each bucket of `bucketSeconds`
 * from `since` to `last` (both bucket starts, Unix seconds, aligned to the bucket size, which must be a
 * multiple of 15 minutes), by outcome, with duration percentiles from the rollup histogram (within
 * LATENCY_RESOLUTION of the exact ones; null in a bucket without attempts). Every bucket is there,
 * oldest first.
 *
 * Succeeded is what the workers count as delivered: a 2xx with no error (an agent's 2xx that is not an
 * A2A answer carries an error and failed).
 */
export async function attemptTimeseries(
  db: Db,
  orgId: string,
  range: TimeseriesRange,
): Promise<AttemptBucket[]> {
  const r = await attemptTimeseriesQuery(orgId, range).execute(db);
  return r.rows.map((row) => {
    const [p50 = null, p95 = null, p99 = null] = histogramPercentiles(
      parseHistogram(row.latency),
      [0.5, 0.95, 0.99],
    );
    return { start: row.start, succeeded: row.succeeded, failed: row.failed, p50, p95, p99 };
  });
}
