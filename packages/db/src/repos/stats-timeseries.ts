import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.ts';

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

/** The statement alone, so a test can EXPLAIN exactly what runs. */
export function attemptTimeseriesQuery(orgId: string, range: TimeseriesRange): RawBuilder<AttemptBucket> {
  const { since, last, bucketSeconds: b } = range;
  return sql<AttemptBucket>`
    select s.start::float8 as start,
           count(a.duration_ms) filter (where a.ok)::int as succeeded,
           count(a.duration_ms) filter (where not a.ok)::int as failed,
           percentile_cont(0.5) within group (order by a.duration_ms) as p50,
           percentile_cont(0.95) within group (order by a.duration_ms) as p95,
           percentile_cont(0.99) within group (order by a.duration_ms) as p99
    from generate_series(${since}::bigint, ${last}::bigint, ${b}::bigint) as s(start)
    left join (
      select floor(extract(epoch from d.attempted_at) / ${b}::bigint)::bigint * ${b}::bigint as start,
             coalesce(d.status_code between 200 and 299, false) and d.error is null as ok,
             d.duration_ms
      from delivery_attempts d
      where d.org_id = ${orgId}
        and d.attempted_at >= to_timestamp(${since}::float8)
        and d.attempted_at < to_timestamp(${last + b}::float8)
    ) a on a.start = s.start
    group by s.start
    order by s.start`;
}

/**
 * Delivery attempts (webhook and a2a) of one organization started in each bucket of `bucketSeconds`
 * from `since` to `last` (both bucket starts, Unix seconds, aligned to the bucket size), by outcome,
 * with the percentiles of their durations (null in a bucket without attempts). Every bucket is there,
 * oldest first. One statement: the attempts come through (org_id, attempted_at), so no other
 * organization's rows are read, and generate_series supplies the empty buckets.
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
  const round = (x: number | null) => (x === null ? null : Math.round(x));
  return r.rows.map((row) => ({ ...row, p50: round(row.p50), p95: round(row.p95), p99: round(row.p99) }));
}
