// Proves the secret box: envelopes round-trip and name their key, a key can be rotated (new key first,
// old one still listed) without touching stored rows, and anything that is not exactly what was sealed
// (tampered parts, a relabelled key id, an unknown key, a truncated tag) refuses to open. Unusable
// ENCRYPTION_KEYS settings stop the service at start with a message that never echoes key material.
// Binding is in secret-binding.test.ts.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { createSecretBox, parseEncryptionKeys, SecretOpenError, type SecretBinding } from './secret-box.ts';

const key = (): string => randomBytes(32).toString('base64');
const at: SecretBinding = { id: 'tg_1', column: 'signing_secret' };
const flip = (part: string): string => {
  const b = Buffer.from(part, 'base64url');
  b[0] = (b[0] ?? 0) ^ 1;
  return b.toString('base64url');
};
const replacePart = (envelope: string, index: number, fn: (p: string) => string): string =>
  envelope
    .split('.')
    .map((p, i) => (i === index ? fn(p) : p))
    .join('.');

describe('createSecretBox', () => {
  it('seals into a v2 envelope naming the current key and opens it again', () => {
    const box = createSecretBox(`k1:${key()}`);
    const plain = 'whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IQ==';
    const envelope = box.seal(plain, at);
    expect(envelope).toMatch(/^v2\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(envelope).not.toContain(plain);
    expect(box.open(envelope, at)).toBe(plain);
    expect(box.currentKeyId).toBe('k1');
    expect(box.needsReseal(envelope)).toBe(false);
  });

  it('uses a fresh IV each time, so equal secrets give different envelopes', () => {
    const box = createSecretBox(`k1:${key()}`);
    expect(box.seal('same', at)).not.toBe(box.seal('same', at));
  });

  it('round-trips empty and non-ASCII text', () => {
    const box = createSecretBox(`k1:${key()}`);
    for (const s of ['', 'ünïcødé ✓', 'x'.repeat(10_000)]) expect(box.open(box.seal(s, at), at)).toBe(s);
  });

  it('rotates: the new key seals, envelopes of the old key still open, and ask to be re-sealed', () => {
    const oldKey = key();
    const before = createSecretBox(`old:${oldKey}`);
    const stored = before.seal('secret sealed before rotation', at);
    const after = createSecretBox(`new:${key()}, old:${oldKey}`);
    expect(after.currentKeyId).toBe('new');
    expect(after.open(stored, at)).toBe('secret sealed before rotation');
    expect(after.needsReseal(stored)).toBe(true);
    const resealed = after.seal(after.open(stored, at), at);
    expect(resealed.startsWith('v2.new.')).toBe(true);
    expect(after.needsReseal(resealed)).toBe(false);
    // Once the old key is retired, its envelopes no longer open.
    expect(() => createSecretBox(`new:${key()}`).open(stored, at)).toThrow(/key id "old"/);
  });

  it('refuses an envelope naming a key id that is not configured', () => {
    const envelope = createSecretBox(`k1:${key()}`).seal('s', at);
    const other = createSecretBox(`k2:${key()}`);
    expect(() => other.open(envelope, at)).toThrow(SecretOpenError);
    expect(() => other.open(envelope, at)).toThrow(
      'encrypted secret names key id "k1", which is not in ENCRYPTION_KEYS',
    );
  });

  it('refuses an envelope sealed under another key with the same id', () => {
    const envelope = createSecretBox(`k1:${key()}`).seal('s', at);
    expect(() => createSecretBox(`k1:${key()}`).open(envelope, at)).toThrow(/failed authentication/);
  });

  it.each([
    ['ciphertext', 4],
    ['tag', 3],
    ['iv', 2],
  ])('refuses a tampered %s', (_name, index) => {
    const box = createSecretBox(`k1:${key()}`);
    const envelope = box.seal('a secret worth protecting', at);
    expect(() => box.open(replacePart(envelope, index, flip), at)).toThrow(/failed authentication/);
  });

  it('refuses an envelope relabelled with another configured key id', () => {
    const k = key();
    const box = createSecretBox(`a:${k},b:${k}`);
    const envelope = box.seal('s', at);
    // Same key material under both ids: only the authenticated header tells them apart.
    expect(() =>
      box.open(
        replacePart(envelope, 1, () => 'b'),
        at,
      ),
    ).toThrow(/failed authentication/);
  });

  it('refuses a truncated tag', () => {
    const box = createSecretBox(`k1:${key()}`);
    const envelope = box.seal('s', at);
    const short = replacePart(envelope, 3, (p) =>
      Buffer.from(p, 'base64url').subarray(0, 4).toString('base64url'),
    );
    expect(() => box.open(short, at)).toThrow(/malformed/);
  });

  it.each(['', 'plain text', 'v3.k1.a.b.c', 'v2.k1.a.b.c', 'v2.k1.a.b', 'v2.k1.!!.b.c', 'v2.k1.a.b.c.d'])(
    'refuses the malformed envelope %j',
    (envelope) => {
      const box = createSecretBox(`k1:${key()}`);
      expect(() => box.open(envelope, at)).toThrow(SecretOpenError);
    },
  );
});

describe('ENCRYPTION_KEYS', () => {
  it('keeps the configured order; the first key encrypts', () => {
    const keys = parseEncryptionKeys(` b:${key()} ,a:${key()},`);
    expect([...keys.keys()]).toEqual(['b', 'a']);
  });

  it.each([
    ['nothing configured', '', /is empty: no encryption key is configured/],
    ['only separators', ' , ', /is empty/],
    ['no key id', key(), /entry 1 has no valid key id/],
    ['an empty key id', `:${key()}`, /entry 1 has no valid key id/],
    ['a key id with a dot', `a.b:${key()}`, /entry 1 has no valid key id/],
    [
      'a 16-byte key',
      `k1:${randomBytes(16).toString('base64')}`,
      /key "k1" is 16 bytes after base64 decoding, not 32/,
    ],
    ['a 33-byte key', `k1:${randomBytes(33).toString('base64')}`, /key "k1" is 33 bytes/],
    ['a key that is not base64', 'k1:not base64 at all!', /key "k1" is 0 bytes/],
    ['a duplicate key id', `k1:${key()},k1:${key()}`, /lists key id "k1" twice/],
  ])('refuses %s at start with a clear message', (_name, config, message) => {
    expect(() => createSecretBox(config)).toThrow(message);
    expect(() => createSecretBox(config)).toThrow(/^invalid configuration: ENCRYPTION_KEYS /);
  });

  it('never echoes key material in the error', () => {
    const short = randomBytes(16).toString('base64');
    let message = '';
    try {
      createSecretBox(`k1:${short}`);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/key "k1" is 16 bytes/);
    expect(message).not.toContain(short);
  });
});
