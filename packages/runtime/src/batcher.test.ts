import { describe, expect, it } from '@jest/globals';
import { createBatcher } from './batcher.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('createBatcher', () => {
  it('runs the items of one turn together at its end, and items arriving while a run is busy after it', async () => {
    const runs: number[][] = [];
    const b = createBatcher<number, number>(
      async (xs) => {
        runs.push(xs);
        await tick();
        return xs.map((x) => x * 2);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    // Submitted in one turn (as a job group's items are), they share a run; nothing has run yet when
    // the turn's own code is done.
    const first = [1, 2, 3].map((x) => b.submit(x));
    await Promise.resolve();
    expect(runs).toEqual([]);
    // Submitted while that run is under way: together, right after it.
    await new Promise((r) => setImmediate(r));
    const later = [4, 5].map((x) => b.submit(x));
    expect(await Promise.all([...first, ...later])).toEqual([2, 4, 6, 8, 10]);
    expect(runs).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // A lone item at low load runs at the end of the turn it came in, before any timer.
    runs.length = 0;
    const lone = b.submit(6);
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([[6]]);
    await lone;
  });

  it('caps the batch size and the runs in flight', async () => {
    let busy = 0;
    let maxBusy = 0;
    const sizes: number[] = [];
    const b = createBatcher<number, number>(
      async (xs) => {
        busy++;
        maxBusy = Math.max(maxBusy, busy);
        sizes.push(xs.length);
        await tick();
        busy--;
        return xs;
      },
      { maxBatch: 3, maxInFlight: 2 },
    );
    await Promise.all(Array.from({ length: 20 }, (_, i) => b.submit(i)));
    expect(maxBusy).toBe(2);
    expect(Math.max(...sizes)).toBe(3);
    expect(sizes.reduce((a, c) => a + c, 0)).toBe(20);
  });

  it('rejects only the item whose result is an Error, or the whole batch when run throws', async () => {
    const b = createBatcher<number, number>(
      (xs) => Promise.resolve(xs.map((x) => (x === 2 ? new Error('two') : x))),
      {
        maxBatch: 10,
        maxInFlight: 1,
      },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((x) => b.submit(x)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const failing = createBatcher<number, number>(() => Promise.reject(new Error('down')), {
      maxBatch: 10,
      maxInFlight: 1,
    });
    await expect(failing.submit(1)).rejects.toThrow('down');
  });

  it('with a linger, an item that finds it idle waits for others; a full batch or a busy one does not', async () => {
    const runs: { at: number; xs: number[] }[] = [];
    const start = performance.now();
    const b = createBatcher<number, number>(
      async (xs) => {
        runs.push({ at: performance.now() - start, xs });
        await tick();
        return xs;
      },
      { maxBatch: 4, maxInFlight: 1, lingerMs: 40 },
    );
    const first = b.submit(1);
    await tick();
    const second = b.submit(2);
    await Promise.all([first, second]);
    // Both in one run, which began only once the linger was over.
    expect(runs.map((r) => r.xs)).toEqual([[1, 2]]);
    expect(runs[0]?.at).toBeGreaterThanOrEqual(35);

    // Four items fill a batch: it runs at once. The two that come while it runs go straight after it.
    runs.length = 0;
    const t0 = performance.now() - start;
    const full = [3, 4, 5, 6].map((x) => b.submit(x));
    const next = [7, 8].map((x) => b.submit(x));
    await Promise.all([...full, ...next]);
    expect(runs.map((r) => r.xs)).toEqual([
      [3, 4, 5, 6],
      [7, 8],
    ]);
    expect((runs[1]?.at ?? Infinity) - t0).toBeLessThan(35);
  });
});
