import { describe, expect, it } from '@jest/globals';
import { runGrouped } from './grouped.ts';

describe('runGrouped', () => {
  it("runs one call per key and answers in the items' order; a failed call fails its own items only", async () => {
    const calls: string[][] = [];
    const out = await runGrouped(
      ['a1', 'b1', 'a2', 'c1', 'b2'],
      (x) => x[0]!,
      (group) => {
        calls.push(group);
        return group[0] === 'c1'
          ? Promise.reject(new Error('c down'))
          : Promise.resolve(group.map((x) => x.toUpperCase()));
      },
    );
    expect(calls).toEqual([['a1', 'a2'], ['b1', 'b2'], ['c1']]);
    expect(out.slice(0, 3)).toEqual(['A1', 'B1', 'A2']);
    expect(out[3]).toEqual(new Error('c down'));
    expect(out[4]).toBe('B2');
  });
});
