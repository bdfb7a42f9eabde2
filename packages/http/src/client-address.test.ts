import { describe, expect, it } from '@jest/globals';
import { clientAddress } from './client-address.ts';

describe('clientAddress', () => {
  it.each([
    ['2001:db8:1:2::a', '2001:db8:1:2::a', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0000:0000:0000:000a', '2001:db8:1:2::a', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8::1', '2001:db8::/64'],
    ['2001:db8:0:0:1::', '2001:db8:0:0:1::', '2001:db8::/64'],
    ['::1', '::1', '::/64'],
    ['::', '::', '::/64'],
    ['fe80::1%eth0', 'fe80::1', 'fe80::/64'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8', '1:2:3:4::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221', '64:ff9b::/64'],
  ])('%s is %s in %s', (ip, address, prefix64) => {
    expect(clientAddress(ip)).toEqual({ address, prefix64 });
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address, without a prefix', () => {
    expect(clientAddress('::ffff:203.0.113.7')).toEqual({ address: '203.0.113.7' });
    expect(clientAddress('::FFFF:cb00:7107')).toEqual({ address: '203.0.113.7' });
    expect(clientAddress('0:0:0:0:0:ffff:203.0.113.7')).toEqual({ address: '203.0.113.7' });
  });

  it('keeps IPv4 and anything unparsable as they are', () => {
    expect(clientAddress('203.0.113.7')).toEqual({ address: '203.0.113.7' });
    expect(clientAddress('not an address')).toEqual({ address: 'not an address' });
    expect(clientAddress('2001:db8::1::2')).toEqual({ address: '2001:db8::1::2' });
    expect(clientAddress(undefined)).toEqual({ address: 'unknown' });
  });
});
