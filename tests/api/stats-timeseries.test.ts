// Proves GET /api/v1/stats/timeseries over real HTTP and Postgres, with delivery attempts written at known
// times with known durations and outcomes: every bucket of the window is there, oldest first, aligned to
// its size, zeros and null percentiles where nothing was attempted; each attempt counts in the bucket it
// started in (a boundary instant in the later one), as succeeded only for a 2xx without error; the
// percentiles are those of the bucket's durations (computed here by linear interpolation, as
// percentile_cont does) within the histogram's stated resolution; other organizations' attempts are never counted (never even read:
// stats-timeseries-plan.test.ts); defaults, the 422 for combinations past 700 buckets or a bucket
// longer than the window, 400 for unknown values, and credentials (key or session, nothing else).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LATENCY_RESOLUTION } from '@evds/db';
import { startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { addAttempts, workspaceWithEvent, type Attempt, type Series } from './stats-timeseries-kit.ts';

const HOUR = 3600;
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

/** percentile_cont: linear interpolation between the sorted values' neighbouring ranks. */
function percentile(values: number[], p: number): number {
  const xs = [...values].sort((a, b) => a - b);
  const rank = p * (xs.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return Math.round((xs[lo] ?? 0) + ((xs[hi] ?? 0) - (xs[lo] ?? 0)) * (rank - lo));
}

/** A percentile read from the histogram: within the resolution of (exact + 1 ms), plus rounding. */
function expectNear(got: number | null, exact: number) {
  expect([got, exact, Math.abs((got ?? NaN) - exact) <= LATENCY_RESOLUTION * (exact + 1) + 0.5]).toEqual([
    got,
    exact,
    true,
  ]);
}

const series = (ws: TestWorkspace, query = '') =>
  api.request<Series>(`/api/v1/stats/timeseries${query}`, { key: ws.apiKey });

/** Checks the shape every answer shares: all buckets, consecutive, aligned, the last one holding now. */
function expectWholeWindow(s: Series, windowSeconds: number, before: number, after: number) {
  const b = s.bucket_seconds;
  expect(s.since % b).toBe(0);
  expect([
    Math.floor((before - windowSeconds) / b) * b,
    Math.floor((after - windowSeconds) / b) * b,
  ]).toContain(s.since);
  expect(s.buckets).toHaveLength(windowSeconds / b + 1);
  s.buckets.forEach((x, i) => expect(x.start).toBe(s.since + i * b));
  const last = s.buckets.at(-1)?.start ?? 0;
  expect(last).toBeLessThanOrEqual(after);
  expect(last + b).toBeGreaterThan(before);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('the buckets', () => {
  it('counts attempts by outcome in the bucket they started in, with the percentiles of their durations', async () => {
    const a = await workspaceWithEvent(api);
    const other = await workspaceWithEvent(api);
    const hourStart = (Math.floor(nowSeconds() / HOUR) - 3) * HOUR * 1000;
    const ok = [12, 40, 7, 300, 95, 61, 18, 250];
    const bucket: Attempt[] = [
      ...ok.map((d, i) => ({ atMs: hourStart + 1000 + i * 60_000, durationMs: d, statusCode: 200 })),
      { atMs: hourStart, durationMs: 1500, statusCode: 500 }, // the boundary instant: this bucket
      { atMs: hourStart + 30 * 60_000, durationMs: 2000, statusCode: null, error: 'connection refused' },
      { atMs: hourStart + 40 * 60_000, durationMs: 33, statusCode: 200, error: 'not an A2A answer' },
    ];
    const previous: Attempt[] = [{ atMs: hourStart - 1, durationMs: 5, statusCode: 204 }];
    const outside: Attempt[] = [{ atMs: hourStart - 26 * HOUR * 1000, durationMs: 9, statusCode: 200 }];
    await addAttempts(api, a, [...bucket, ...previous, ...outside]);
    // Another organization's attempts in the very same bucket.
    await addAttempts(api, other, [
      { atMs: hourStart + 5000, durationMs: 99_999, statusCode: 200 },
      { atMs: hourStart + 6000, durationMs: 99_999, statusCode: 503 },
    ]);

    const before = nowSeconds();
    const r = await series(a.ws, '?window=24h');
    const after = nowSeconds();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ window: '24h', bucket: '1h', bucket_seconds: HOUR });
    expectWholeWindow(r.body, 24 * HOUR, before, after);

    const durations = bucket.map((x) => x.durationMs);
    const byStart = new Map(r.body.buckets.map((x) => [x.start, x]));
    const mine = byStart.get(hourStart / 1000);
    expect(mine).toMatchObject({ start: hourStart / 1000, succeeded: ok.length, failed: 3 });
    expectNear(mine?.p50_ms ?? null, percentile(durations, 0.5));
    expectNear(mine?.p95_ms ?? null, percentile(durations, 0.95));
    expectNear(mine?.p99_ms ?? null, percentile(durations, 0.99));
    expect(byStart.get(hourStart / 1000 - HOUR)).toEqual({
      start: hourStart / 1000 - HOUR,
      succeeded: 1,
      failed: 0,
      p50_ms: 5,
      p95_ms: 5,
      p99_ms: 5,
    });
    const quiet = r.body.buckets.filter(
      (x) => x.start !== hourStart / 1000 && x.start !== hourStart / 1000 - HOUR,
    );
    expect(quiet.length).toBe(r.body.buckets.length - 2);
    for (const x of quiet)
      expect(x).toEqual({
        start: x.start,
        succeeded: 0,
        failed: 0,
        p50_ms: null,
        p95_ms: null,
        p99_ms: null,
      });
    // The attempt from 26 hours ago is before the first bucket and counted nowhere.
    const total = r.body.buckets.reduce((n, x) => n + x.succeeded + x.failed, 0);
    expect(total).toBe(bucket.length + previous.length);

    // The other organization sees its own two attempts, and none of A's.
    const theirs = await series(other.ws, '?window=24h');
    const theirBucket = theirs.body.buckets.find((x) => x.start === hourStart / 1000);
    expect(theirBucket).toMatchObject({ succeeded: 1, failed: 1 });
    expectNear(theirBucket?.p50_ms ?? null, 99_999);
    expect(theirs.body.buckets.reduce((n, x) => n + x.succeeded + x.failed, 0)).toBe(2);
  });

  it('takes each window and bucket, with its default bucket, aligned to the bucket size', async () => {
    const { ws } = await workspaceWithEvent(api);
    const cases: [string, string, number, number][] = [
      ['', '1h', 24 * HOUR, HOUR],
      ['?window=1h', '15m', HOUR, 900],
      ['?window=7d', '6h', 7 * 24 * HOUR, 6 * HOUR],
      ['?window=30d', '1d', 30 * 24 * HOUR, 24 * HOUR],
      ['?window=24h&bucket=15m', '15m', 24 * HOUR, 900],
      ['?window=24h&bucket=1d', '1d', 24 * HOUR, 24 * HOUR],
      ['?window=7d&bucket=15m', '15m', 7 * 24 * HOUR, 900],
      ['?window=7d&bucket=1h', '1h', 7 * 24 * HOUR, HOUR],
    ];
    for (const [query, bucket, windowSeconds, bucketSeconds] of cases) {
      const before = nowSeconds();
      const r = await series(ws, query);
      const after = nowSeconds();
      expect([query, r.status]).toEqual([query, 200]);
      expect(r.body).toMatchObject({ bucket, bucket_seconds: bucketSeconds });
      expectWholeWindow(r.body, windowSeconds, before, after);
    }
  });

  it('refuses a bucket longer than the window, or more than 700 buckets, with 422 saying why', async () => {
    const { ws } = await workspaceWithEvent(api);
    const cases: [string, RegExp][] = [
      ['?window=1h&bucket=6h', /^bucket 6h is longer than the window 1h$/],
      ['?window=1h&bucket=1d', /^bucket 1d is longer than the window 1h$/],
      ['?window=30d&bucket=15m', /makes 2881 buckets; at most 700/],
      ['?window=30d&bucket=1h', /makes 721 buckets; at most 700/],
    ];
    for (const [query, message] of cases) {
      const r = await series(ws, query);
      expect([query, r.status, r.body.code]).toEqual([query, 422, 'unprocessable']);
      expect(String(r.body.error)).toMatch(message);
    }
  });

  it('answers 400 naming the parameter for an unknown window, bucket or parameter', async () => {
    const { ws } = await workspaceWithEvent(api);
    for (const [query, field] of [
      ['?window=3d', 'window'],
      ['?bucket=5m', 'bucket'],
      ['?window=24h&bucket=', 'bucket'],
      ['?window=24h&window=7d', 'window'],
      ['?since=0', 'since'],
    ]) {
      const r = await series(ws, query);
      expect([query, r.status, r.body.code]).toEqual([query, 400, 'validation_failed']);
      expect(String(r.body.error)).toContain(field);
    }
  });
});

describe('credentials', () => {
  it('takes an API key or a session of the organization, and refuses anything else with 401', async () => {
    const { ws } = await workspaceWithEvent(api);
    const login = await api.request<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: ws.email, password: ws.password },
    });
    expect(login.status).toBe(200);
    const bySession = await api.request<Series>('/api/v1/stats/timeseries', {
      session: login.body.session_token,
    });
    expect(bySession.status).toBe(200);
    expect(bySession.body.buckets).toHaveLength(25);
    for (const opts of [{}, { key: 'evds_sk_' + '0'.repeat(64) }, { session: 'f'.repeat(64) }]) {
      const r = await api.request('/api/v1/stats/timeseries', opts);
      expect([r.status, r.body.code]).toEqual([401, 'unauthenticated']);
    }
  });
});
