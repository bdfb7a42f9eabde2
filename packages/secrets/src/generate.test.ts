// Proves the shape of the secrets handed to customers: signing secrets are "whsec_" + base64 of 32
// random bytes (the Standard Webhooks format) and inbound secrets are a distinct, random format.
import { describe, expect, it } from '@jest/globals';
import { newInboundSecret, newSigningSecret } from './generate.ts';

describe('secrets handed to customers', () => {
  it('signing secrets are whsec_ + base64 of 32 random bytes', () => {
    const s = newSigningSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(s);
  });

  it('inbound secrets are whin_ + 64 hex characters', () => {
    const s = newInboundSecret();
    expect(s).toMatch(/^whin_[0-9a-f]{64}$/);
    expect(newInboundSecret()).not.toBe(s);
  });
});
