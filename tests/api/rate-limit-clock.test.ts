// Proves the sliding window runs on Redis's clock, not the calling replica's: limiters sharing a key
// agree on the window and on Retry-After although one replica's process clock is an hour ahead or
// behind (faked with a spy on Date.now; Redis is the real server), and the window still slides. Also
// that hits made together share one script call and are counted exactly, in order.
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { createRateLimiter, type RateLimiter } from '@evds/http';
import { createRedis } from '@evds/queue';
import { testRedisPrefix, testRedisUrl } from '@evds/testkit';

const HOUR_MS = 3600_000;
const WINDOW_SECONDS = 2;

let redis: ReturnType<typeof createRedis>;
beforeAll(() => {
  redis = createRedis(testRedisUrl(), { role: 'client' });
});
afterAll(() => redis.disconnect());

/** Two replicas' limiters over one Redis and one key space, like two API processes. */
function replicas(): [RateLimiter, RateLimiter] {
  const opts = { prefix: `${testRedisPrefix()}:rl`, limit: 2, windowSeconds: WINDOW_SECONDS };
  return [createRateLimiter(redis, opts), createRateLimiter(redis, opts)];
}

/** Calls the limiter while this process's clock reads `offsetMs` away from the real time. */
async function withClockOffset<T>(offsetMs: number, call: () => Promise<T>): Promise<T> {
  const realNow = Date.now.bind(Date);
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs);
  try {
    return await call();
  } finally {
    clock.mockRestore();
  }
}

it('a replica whose clock runs ahead cannot empty the window for everyone', async () => {
  const [honest, ahead] = replicas();
  expect((await honest.hit('k')).allowed).toBe(true);
  expect((await honest.hit('k')).allowed).toBe(true);
  const refused = await withClockOffset(HOUR_MS, () => ahead.hit('k'));
  expect(refused.allowed).toBe(false);
  expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(refused.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
});

it('a replica whose clock runs behind sees the same window, a sane Retry-After, and the window slides', async () => {
  const [honest, behind] = replicas();
  expect((await withClockOffset(-HOUR_MS, () => behind.hit('k'))).allowed).toBe(true);
  expect((await withClockOffset(-HOUR_MS, () => behind.hit('k'))).allowed).toBe(true);
  const fromHonest = await honest.hit('k');
  const fromBehind = await withClockOffset(-HOUR_MS, () => behind.hit('k'));
  for (const refused of [fromHonest, fromBehind]) {
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
  }
  // Once the window has passed on Redis's clock, both replicas are allowed again.
  await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 100));
  expect((await withClockOffset(-HOUR_MS, () => behind.hit('k'))).allowed).toBe(true);
  expect((await honest.hit('k')).allowed).toBe(true);
});

it('counts hits made together exactly: one call takes them in order, each key its own window', async () => {
  const opts = { prefix: `${testRedisPrefix()}:rl`, limit: 3, windowSeconds: 60 };
  createRateLimiter(redis, opts);
  // The script's command, watched (and still run) once defined: the next limiter calls it.
  const script = jest.spyOn(
    redis as unknown as { evdsSlidingWindow: () => Promise<number[]> },
    'evdsSlidingWindow',
  );
  const limiter = createRateLimiter(redis, opts);
  const hits = await Promise.all(
    ['a', 'b', 'a', 'a', 'b', 'a', 'c'].map((k) => limiter.hit(`together:${k}`)),
  );
  // 'a' is allowed three times, then refused with a wait within the window; 'b' and 'c' are allowed.
  expect(hits.map((h) => h.allowed)).toEqual([true, true, true, true, true, false, true]);
  expect(hits[5]?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(hits[5]?.retryAfterSeconds).toBeLessThanOrEqual(60);
  // Seven hits made in one turn, one script call.
  expect(script).toHaveBeenCalledTimes(1);
  script.mockRestore();
});
