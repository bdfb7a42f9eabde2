// GET /api/v1/stats/timeseries: delivery attempts over time by outcome, for the dashboard's chart.
// Buckets are aligned to their size in Unix time (a day bucket starts at 00:00 UTC) and cover the whole
// window: the first starts at or before now - window, the last holds now, so there are window/bucket + 1.
import { attemptTimeseries, type Db } from '@evds/db';
import { AppError } from '@evds/domain';
import { type RouteDef, defineRoute, errorSchema } from '@evds/http';
import { z } from 'zod';

const windows = { '1h': 3600, '24h': 86400, '7d': 7 * 86400, '30d': 30 * 86400 } as const;
const buckets = { '15m': 900, '1h': 3600, '6h': 6 * 3600, '1d': 86400 } as const;
type Window = keyof typeof windows;
type Bucket = keyof typeof buckets;

/** The bucket when none is asked for: a chart of a few dozen bars, at most a few hundred. */
const defaultBucket: Record<Window, Bucket> = { '1h': '15m', '24h': '1h', '7d': '6h', '30d': '1d' };
export const MAX_BUCKETS = 700;

const nullableMs = z.number().int().nullable();
export const timeseriesSchema = z.object({
  window: z.enum(Object.keys(windows) as [Window, ...Window[]]),
  bucket: z.enum(Object.keys(buckets) as [Bucket, ...Bucket[]]),
  bucket_seconds: z.number().int(),
  since: z.number().int().describe('Unix seconds: the start of the first bucket'),
  buckets: z
    .array(
      z.object({
        start: z.number().int().describe('Unix seconds; the bucket is [start, start + bucket_seconds)'),
        succeeded: z.number().int().describe('attempts started in the bucket that delivered (2xx, no error)'),
        failed: z.number().int().describe('every other attempt started in the bucket'),
        p50_ms: nullableMs.describe(
          'median duration of those attempts, from a histogram (see the route); null without attempts',
        ),
        p95_ms: nullableMs.describe('95th percentile duration, from the histogram'),
        p99_ms: nullableMs.describe('99th percentile duration, from the histogram'),
      }),
    )
    .describe('every bucket, oldest first, zeros where nothing was attempted'),
});

const query = z.strictObject({
  window: z
    .enum(Object.keys(windows) as [Window, ...Window[]])
    .default('24h')
    .describe('default 24h'),
  bucket: z
    .enum(Object.keys(buckets) as [Bucket, ...Bucket[]])
    .optional()
    .describe('default 15m for 1h, 1h for 24h, 6h for 7d, 1d for 30d'),
});

export function timeseriesRoutes(deps: { db: Db; readDb?: Db }): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/stats/timeseries',
      auth: 'KS',
      tag: 'stats',
      summary:
        'Delivery attempts (webhook and a2a) over a window, in buckets by outcome with duration percentiles. ' +
        `Buckets are aligned to their size in Unix time and cover the whole window (window/bucket + 1 of them, at most ${MAX_BUCKETS}). ` +
        'Counts are exact. Percentiles come from a histogram of durations in log-spaced buckets (each 10% wider ' +
        'than the last), interpolated as percentile_cont does: each is within 5% of (the exact value + 1 ms), ' +
        'rounded to whole milliseconds, for durations under an hour',
      query,
      responses: {
        200: { description: 'the buckets', schema: timeseriesSchema },
        400: { description: 'an unknown window or bucket, or another parameter', schema: errorSchema },
        422: {
          description: `a bucket longer than the window, or a combination giving more than ${MAX_BUCKETS} buckets`,
          schema: errorSchema,
        },
      },
      handler: async ({ auth, query: q }) => {
        const bucket = q.bucket ?? defaultBucket[q.window];
        const b = buckets[bucket];
        const w = windows[q.window];
        if (b > w)
          throw new AppError('unprocessable', `bucket ${bucket} is longer than the window ${q.window}`);
        if (w / b + 1 > MAX_BUCKETS)
          throw new AppError(
            'unprocessable',
            `window ${q.window} in ${bucket} buckets makes ${w / b + 1} buckets; at most ${MAX_BUCKETS}: choose a longer bucket`,
          );
        const now = Math.floor(Date.now() / 1000);
        const last = Math.floor(now / b) * b;
        const since = Math.floor((now - w) / b) * b;
        const rows = await attemptTimeseries(deps.readDb ?? deps.db, auth.orgId, {
          since,
          last,
          bucketSeconds: b,
        });
        return {
          body: {
            window: q.window,
            bucket,
            bucket_seconds: b,
            since,
            buckets: rows.map((r) => ({
              start: r.start,
              succeeded: r.succeeded,
              failed: r.failed,
              p50_ms: r.p50,
              p95_ms: r.p95,
              p99_ms: r.p99,
            })),
          },
        };
      },
    }),
  ];
}
