// Retry-After in both forms (delay-seconds and HTTP date) moves the next attempt later than the
// schedule when asked, never earlier, and never past the schedule's longest delay; anything else in
// the header is ignored.
import { describe, expect, it } from '@jest/globals';
import { decide } from './process.ts';
import { retryAfterMs, retryDelay } from './retry-after.ts';

const now = Date.parse('2026-11-24T12:00:00Z');
const schedule = [60_000, 120_000, 240_000, 480_000, 960_000];

describe('retryAfterMs', () => {
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Tue, 24 Nov 2026 12:05:00 GMT', 300_000],
    ['Tuesday, 24-Nov-26 12:01:00 GMT', 60_000],
    ['Tue Nov 24 12:02:00 2026', 120_000],
    ['Tue, 24 Nov 2026 11:00:00 GMT', 0],
  ])('%j asks for %j ms', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });

  it.each(['', '-5', '1.5', 'soon', '3 minutes', '99999999999', 'Tue, 99 Foo 2026 12:05:00 GMT'])(
    'ignores %j',
    (header) => {
      expect(retryAfterMs(header, now)).toBeNull();
    },
  );
});

describe('retryDelay', () => {
  it('never shortens the schedule and caps at its longest delay', () => {
    expect(retryDelay(60_000, null, 960_000)).toBe(60_000);
    expect(retryDelay(60_000, 5_000, 960_000)).toBe(60_000);
    expect(retryDelay(60_000, 300_000, 960_000)).toBe(300_000);
    expect(retryDelay(60_000, 86_400_000, 960_000)).toBe(960_000);
  });
});

describe('decide', () => {
  const failed = (statusCode: number, retryAfter: string | null) => ({
    statusCode,
    durationMs: 5,
    responseBody: '',
    error: null,
    refused: false,
    retryAfter,
  });
  const delayOf = (o: ReturnType<typeof decide>) =>
    o.status === 'RETRYING' ? o.nextAttemptAt.getTime() - Date.now() : undefined;

  it('honours a 429 Retry-After in seconds and a 503 one as a date, within the cap', () => {
    expect(delayOf(decide(failed(429, '600'), 1, 5, schedule))).toBeGreaterThan(599_000);
    const date = new Date(Date.now() + 400_000).toUTCString();
    const asDate = delayOf(decide(failed(503, date), 1, 5, schedule)) ?? 0;
    expect(asDate).toBeGreaterThan(398_000);
    expect(asDate).toBeLessThanOrEqual(400_000);
    expect(delayOf(decide(failed(429, '100000'), 1, 5, schedule))).toBeLessThanOrEqual(960_000);
    expect(delayOf(decide(failed(429, '100000'), 1, 5, schedule))).toBeGreaterThan(959_000);
  });

  it('keeps the schedule when Retry-After asks for less or is absent', () => {
    const d = delayOf(decide(failed(503, '1'), 2, 5, schedule)) ?? 0;
    expect(d).toBeGreaterThan(119_000);
    expect(d).toBeLessThanOrEqual(120_000);
    expect(decide(failed(429, '600'), 6, 5, schedule).status).toBe('EXPIRED');
  });
});
