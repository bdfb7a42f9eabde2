// Proves that an envelope opens only where it was sealed for: another target's row, or a column with
// another purpose (inbound secret, a2a token vs signing secret), refuses it, including when the same box
// already opened it at its own binding (the cache is per binding), and relabelling a bound envelope as
// the old unbound format does not shed its binding (other tampering: secret-box.test.ts). Old-format
// envelopes, written here with the test's own code, still open (a deployment keeps working after the
// upgrade) and ask to be re-sealed, which binds them.
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { createSecretBox, isBoundEnvelope, SecretOpenError, type SecretBinding } from './secret-box.ts';

const keyConfig = `k1:${randomBytes(32).toString('base64')}`;
const A = 'target-a';
const B = 'target-b';
const signingA: SecretBinding = { id: A, column: 'signing_secret' };
const signingB: SecretBinding = { id: B, column: 'signing_secret' };

/** An envelope in the format written before binding: "v1.<kid>.<iv>.<tag>.<ct>", header as AAD only. */
function sealUnbound(plain: string): string {
  const [kid = '', material = ''] = keyConfig.split(':');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(material, 'base64'), iv);
  cipher.setAAD(Buffer.from(`v1.${kid}`));
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', kid, iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('bound envelopes', () => {
  it("open at their own target and column only, never at another target's", () => {
    const box = createSecretBox(keyConfig);
    const envelope = box.seal('whsec_of_a', signingA);
    expect(isBoundEnvelope(envelope)).toBe(true);
    expect(box.open(envelope, signingA)).toBe('whsec_of_a');
    expect(() => box.open(envelope, signingB)).toThrow(SecretOpenError);
    expect(() => box.open(envelope, signingB)).toThrow(/failed authentication.*another target or column/);
  });

  it('do not open in a column with another purpose of the same target', () => {
    const box = createSecretBox(keyConfig);
    const signing = box.seal('whsec_of_a', signingA);
    expect(() => box.open(signing, { id: A, column: 'inbound_secret' })).toThrow(SecretOpenError);
    expect(() => box.open(signing, { id: A, column: 'a2a_auth_token' })).toThrow(SecretOpenError);
    const inbound = box.seal('whin_of_a', { id: A, column: 'inbound_secret' });
    expect(() => box.open(inbound, signingA)).toThrow(SecretOpenError);
    expect(() => box.open(inbound, { id: A, column: 'previous_signing_secret' })).toThrow(SecretOpenError);
  });

  it('move between the two signing columns of their target, as a signing-secret rotation does', () => {
    const box = createSecretBox(keyConfig);
    const current = box.seal('whsec_of_a', signingA);
    expect(box.open(current, { id: A, column: 'previous_signing_secret' })).toBe('whsec_of_a');
    expect(() => box.open(current, { id: B, column: 'previous_signing_secret' })).toThrow(SecretOpenError);
  });

  it('are refused at another binding even after the same box opened them at their own', () => {
    const box = createSecretBox(keyConfig);
    const envelope = box.seal('whsec_of_a', signingA);
    expect(box.open(envelope, signingA)).toBe('whsec_of_a');
    expect(() => box.open(envelope, signingB)).toThrow(SecretOpenError);
    expect(box.open(envelope, signingA)).toBe('whsec_of_a');
  });

  it('cannot be relabelled as the unbound format to shed the binding', () => {
    const box = createSecretBox(keyConfig);
    const downgraded = box.seal('whsec_of_a', signingA).replace(/^v2\./, 'v1.');
    expect(() => box.open(downgraded, signingA)).toThrow(/failed authentication/);
    expect(() => box.open(downgraded, signingB)).toThrow(/failed authentication/);
  });

  it('cannot be sealed without a target id (the id is made before the secret is sealed)', () => {
    const box = createSecretBox(keyConfig);
    expect(() => box.seal('s', { id: '', column: 'signing_secret' })).toThrow(/bound to a target id/);
  });
});

describe('old-format (unbound) envelopes', () => {
  it('still open, wherever they are, and ask to be re-sealed even under the current key', () => {
    const box = createSecretBox(keyConfig);
    const old = sealUnbound('whsec_from_before');
    expect(isBoundEnvelope(old)).toBe(false);
    expect(box.open(old, signingA)).toBe('whsec_from_before');
    expect(box.open(old, { id: B, column: 'inbound_secret' })).toBe('whsec_from_before');
    expect(box.needsReseal(old)).toBe(true);
  });

  it('re-sealed at their row, are bound there and no longer ask to be re-sealed', () => {
    const box = createSecretBox(keyConfig);
    const resealed = box.seal(box.open(sealUnbound('whsec_from_before'), signingA), signingA);
    expect(resealed.startsWith('v2.k1.')).toBe(true);
    expect(box.needsReseal(resealed)).toBe(false);
    expect(box.open(resealed, signingA)).toBe('whsec_from_before');
    expect(() => box.open(resealed, signingB)).toThrow(SecretOpenError);
  });
});
