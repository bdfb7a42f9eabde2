import { describe, expect, it } from '@jest/globals';
import { createTailTracker } from './tail-tracker.ts';

const e = (id: string, status: string) => ({ id, status });

describe('createTailTracker', () => {
  it('shows only events listed after the baseline, oldest first, then their changes until settled', () => {
    const t = createTailTracker();
    t.baseline([e('old', 'QUEUED')]);
    // The API lists newest first.
    expect(t.observe([e('b', 'QUEUED'), e('a', 'DELIVERED'), e('old', 'DELIVERED')])).toEqual([
      { kind: 'new', event: e('a', 'DELIVERED') },
      { kind: 'new', event: e('b', 'QUEUED') },
    ]);
    expect(t.watching()).toEqual(['b']);
    expect(t.observe([e('b', 'QUEUED'), e('a', 'DELIVERED')])).toEqual([]);
    expect(t.observe([e('b', 'RETRYING')])).toEqual([
      { kind: 'status', id: 'b', from: 'QUEUED', to: 'RETRYING' },
    ]);
    expect(t.doneAfter(2)).toBe(false);
    expect(t.observe([e('b', 'EXPIRED')])).toEqual([
      { kind: 'status', id: 'b', from: 'RETRYING', to: 'EXPIRED' },
    ]);
    expect(t.counts).toEqual({ seen: 2, delivered: 1, failed: 1 });
    expect(t.doneAfter(2)).toBe(true);
    expect(t.doneAfter(3)).toBe(false);
  });

  it('stops following a settled event: a later replay (REPLAYED) is not shown', () => {
    const t = createTailTracker();
    t.baseline([]);
    t.observe([e('a', 'DELIVERED')]);
    expect(t.observe([e('a', 'REPLAYED')])).toEqual([]);
    expect(t.counts).toEqual({ seen: 1, delivered: 1, failed: 0 });
  });

  it('refuses to observe before the baseline', () => {
    expect(() => createTailTracker().observe([])).toThrow('baseline');
  });
});
