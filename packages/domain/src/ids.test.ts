// Ids draw their random part from a pool refilled 4 KiB at a time: across several refills every id
// still has the format, its creation time and random digits no other id shares.
import { expect, it } from '@jest/globals';
import { idTime, isId, newId } from './ids.ts';

it('makes well-formed, time-ordered ids whose random parts never repeat across refills of the pool', () => {
  const now = Date.now();
  const ids = Array.from({ length: 5000 }, () => newId(now));
  for (const id of ids) expect(isId(id)).toBe(true);
  expect(idTime(ids[0]!)?.getTime()).toBe(now);
  expect(new Set(ids.map((id) => id.slice(12))).size).toBe(ids.length);
  // Not a counter: the random digits spread over the whole alphabet.
  expect(new Set(ids.map((id) => id[12])).size).toBe(16);
});
