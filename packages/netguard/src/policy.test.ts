// The address check on its own and the development escape hatch: allowCidrs opens exactly the ranges
// it names, and a host name that resolves to loopback is refused when they are not open. A refused
// name's reason never names the address it resolved to; only the onNameRefused hook (the log) sees it.
import { describe, expect, it } from '@jest/globals';
import type { NameRefusal } from './errors.ts';
import { createNetPolicy, hostTableResolve } from './policy.ts';
import { fakeResolver } from './test-resolver.ts';

describe('createNetPolicy', () => {
  it('refuses a host name that resolves to 127.0.0.1', async () => {
    const policy = createNetPolicy({
      allowCidrs: [],
      resolve: fakeResolver({ 'receiver.test': ['127.0.0.1'] }),
    });
    expect(await policy.checkUrl('https://receiver.test/hook')).toEqual({
      ok: false,
      reason: 'host receiver.test resolves to a non-public address',
    });
  });

  it('keeps the address a name resolved to out of the reason, at check and at connect, and logs it', async () => {
    const told: NameRefusal[] = [];
    const policy = createNetPolicy({
      allowCidrs: [],
      resolve: fakeResolver({ 'internal.example': ['93.184.215.14', '10.1.2.3'] }),
      onNameRefused: (refusal) => told.push(refusal),
    });
    const checked = await policy.checkUrl('https://internal.example/hook');
    expect(checked).toEqual({ ok: false, reason: 'host internal.example resolves to a non-public address' });
    const connected = await new Promise<Error | null>((resolve) =>
      policy.lookup('internal.example', { all: true }, (err) => resolve(err)),
    );
    expect(connected?.message).toBe('host internal.example resolves to a non-public address');
    expect(JSON.stringify(checked) + String(connected?.message)).not.toContain('10.1.2.3');
    const logged = {
      host: 'internal.example',
      address: '10.1.2.3',
      reason: 'address 10.1.2.3 is not public (private)',
    };
    expect(told).toEqual([logged, logged]);
  });

  it('names a literal address, which the caller wrote', async () => {
    const policy = createNetPolicy({ allowCidrs: [], resolve: fakeResolver({}) });
    expect(await policy.checkUrl('https://10.1.2.3/hook')).toEqual({
      ok: false,
      reason: 'address 10.1.2.3 is not public (private)',
    });
  });

  it('lets 127.0.0.1 and ::1 through when allowCidrs names them, and nothing else', async () => {
    const policy = createNetPolicy({
      allowCidrs: ['127.0.0.0/8', '::1/128'],
      resolve: fakeResolver({ 'receiver.test': ['127.0.0.1', '::1'] }),
    });
    expect(policy.isAllowedAddress('127.0.0.1')).toEqual({ ok: true });
    expect(policy.isAllowedAddress('127.3.2.1')).toEqual({ ok: true });
    expect(policy.isAllowedAddress('::1')).toEqual({ ok: true });
    expect(policy.isAllowedAddress('::ffff:127.0.0.1')).toEqual({ ok: true });
    expect(policy.isAllowedAddress('10.0.0.1')).toEqual({
      ok: false,
      reason: 'address 10.0.0.1 is not public (private)',
    });
    expect((await policy.checkUrl('https://127.0.0.1:8443/hook')).ok).toBe(true);
    expect((await policy.checkUrl('https://[::1]:8443/hook')).ok).toBe(true);
    expect((await policy.checkUrl('https://receiver.test:8443/hook')).ok).toBe(true);
  });

  it('keeps refusing the name localhost even when loopback is allowed', async () => {
    const policy = createNetPolicy({ allowCidrs: ['127.0.0.0/8'], resolve: fakeResolver({}) });
    expect(await policy.checkUrl('https://localhost:8443/')).toEqual({
      ok: false,
      reason: 'host localhost is not allowed (localhost)',
    });
  });

  it('checks addresses strictly: only spellings a socket treats as literals', () => {
    const policy = createNetPolicy({ allowCidrs: [] });
    expect(policy.isAllowedAddress('93.184.215.14')).toEqual({ ok: true });
    expect(policy.isAllowedAddress('2606:4700:4700::1111')).toEqual({ ok: true });
    expect(policy.isAllowedAddress('0177.0.0.1')).toEqual({
      ok: false,
      reason: '0177.0.0.1 is not an IP address',
    });
    expect(policy.isAllowedAddress('example.com')).toEqual({
      ok: false,
      reason: 'example.com is not an IP address',
    });
    expect(policy.isAllowedAddress('fe80::1%eth0')).toEqual({
      ok: false,
      reason: 'address fe80::1%eth0 is not public (link-local)',
    });
  });

  it('does not ask DNS about IP literals', async () => {
    const resolve = fakeResolver({});
    const policy = createNetPolicy({ allowCidrs: [], resolve });
    await policy.checkUrl('https://93.184.215.14/');
    await policy.checkUrl('https://[::1]/');
    expect(resolve.calls).toEqual([]);
  });

  it('reports a resolver answer that is not an address', async () => {
    const policy = createNetPolicy({
      allowCidrs: [],
      resolve: fakeResolver({ 'odd.example.com': ['nonsense'] }),
    });
    expect(await policy.checkUrl('https://odd.example.com/')).toEqual({
      ok: false,
      reason: 'host odd.example.com resolves to a non-public address',
    });
  });

  it('rejects a malformed allowCidrs entry at creation', () => {
    expect(() => createNetPolicy({ allowCidrs: ['127.0.0.1'] })).toThrow(
      'invalid CIDR in allowCidrs: 127.0.0.1',
    );
  });

  it('answers the names of a test host table from it, checked like any answer, and others from DNS', async () => {
    const dns = fakeResolver({ 'other.example.com': ['93.184.215.14'] });
    const resolve = hostTableResolve({ 'hook.example.com': ['127.0.0.1'] }, dns);
    expect(await resolve('HOOK.example.com.')).toEqual(['127.0.0.1']);
    expect(await resolve('other.example.com')).toEqual(['93.184.215.14']);
    expect(dns.calls).toEqual(['other.example.com']);
    expect(hostTableResolve({}, dns)).toBe(dns);

    const policy = createNetPolicy({ allowCidrs: [], testHosts: { 'hook.example.com': ['127.0.0.1'] } });
    expect(await policy.checkUrl('https://hook.example.com/')).toEqual({
      ok: false,
      reason: 'host hook.example.com resolves to a non-public address',
    });
  });
});
