import { describe, expect, it } from '@jest/globals';
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hash with N=2^17, r=8, p=1 and verify', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('ask for a new hash when the stored one uses other parameters', () => {
    expect(needsRehash('scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA')).toBe(true);
    expect(needsRehash('scrypt$131072$8$2$AAAAAAAAAAAAAAAAAAAAAA==$AAAA')).toBe(true);
  });

  it('derive one at a time per process (each holds 128 MiB): three at once finish one after another', async () => {
    const start = performance.now();
    const finished: number[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((pw) => hashPassword(pw).then(() => finished.push(performance.now() - start))),
    );
    const [first = 0, second = 0, third = 0] = finished;
    // Run together they finish within a few ms of one another; in turn, a whole derivation apart
    // (a fifth of the first one's time leaves room for a loaded machine's uneven pace).
    expect(second - first).toBeGreaterThan(first / 5);
    expect(third - second).toBeGreaterThan(first / 5);
  });

  it('check unknown emails against a dummy hash that costs what a real one does', async () => {
    expect(DUMMY_HASH).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(needsRehash(DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
  });
});
