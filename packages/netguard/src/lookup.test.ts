// The policy's lookup in both of Node's callback forms: a private answer fails with
// ERR_NETGUARD_REFUSED, a public one comes back exactly as checked, and literals are checked too.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { describe, expect, it } from '@jest/globals';
import { NETGUARD_REFUSED, isNetguardRefusal } from './errors.ts';
import { createNetPolicy, type NetPolicy } from './policy.ts';
import { fakeResolver } from './test-resolver.ts';

type Answer = { address: string | LookupAddress[]; family: number | undefined };

const lookup = (policy: NetPolicy, host: string, options: LookupOptions): Promise<Answer> =>
  new Promise((resolve, reject) => {
    policy.lookup(host, options, (err, address, family) =>
      err ? reject(err) : resolve({ address, family }),
    );
  });

const zone = {
  'public.example.com': ['93.184.215.14', '2606:4700:4700::1111'],
  'private.example.com': ['10.0.0.7'],
  'mixed.example.com': ['2606:4700:4700::1111', '127.0.0.1'],
  'v4only.example.com': ['93.184.215.14'],
};

describe('policy.lookup', () => {
  const policy = createNetPolicy({ allowCidrs: [], resolve: fakeResolver(zone) });

  it('passes a public answer in the all form', async () => {
    expect(await lookup(policy, 'public.example.com', { all: true })).toEqual({
      address: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
      family: undefined,
    });
  });

  it('passes a public answer in the single-address form', async () => {
    expect(await lookup(policy, 'public.example.com', {})).toEqual({ address: '93.184.215.14', family: 4 });
    expect(await lookup(policy, 'public.example.com', { family: 6 })).toEqual({
      address: '2606:4700:4700::1111',
      family: 6,
    });
  });

  it.each([{ all: true }, {}])('refuses a private answer (options %j)', async (options) => {
    const failure = lookup(policy, 'private.example.com', options);
    await expect(failure).rejects.toMatchObject({
      code: NETGUARD_REFUSED,
      message: 'host private.example.com resolves to a non-public address',
    });
  });

  it('refuses a name when any answer is private, even one of another family than asked', async () => {
    await expect(lookup(policy, 'mixed.example.com', { family: 6 })).rejects.toMatchObject({
      code: NETGUARD_REFUSED,
    });
  });

  it('checks IP literals without asking DNS', async () => {
    const resolve = fakeResolver({});
    const literalPolicy = createNetPolicy({ allowCidrs: [], resolve });
    expect(await lookup(literalPolicy, '93.184.215.14', {})).toEqual({ address: '93.184.215.14', family: 4 });
    const failure = lookup(literalPolicy, '::1', { all: true });
    await expect(failure).rejects.toMatchObject({
      code: NETGUARD_REFUSED,
      message: 'address ::1 is not public (loopback)',
    });
    expect(resolve.calls).toEqual([]);
  });

  it('passes a DNS failure through unchanged, so it is not mistaken for a refusal', async () => {
    const failure = lookup(policy, 'missing.example.com', {});
    await expect(failure).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(isNetguardRefusal(await failure.catch((err: unknown) => err))).toBe(false);
  });

  it('answers ENOTFOUND when no answer has the family asked for', async () => {
    await expect(lookup(policy, 'v4only.example.com', { family: 6, all: true })).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('lets allowed ranges through', async () => {
    const devPolicy = createNetPolicy({
      allowCidrs: ['10.0.0.0/8'],
      resolve: fakeResolver(zone),
    });
    expect(await lookup(devPolicy, 'private.example.com', { all: true })).toEqual({
      address: [{ address: '10.0.0.7', family: 4 }],
      family: undefined,
    });
  });
});
