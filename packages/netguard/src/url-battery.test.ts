// The URL battery: every spelling of a non-public address we know of is refused with the reason an
// API user will see, and ordinary public URLs (literal or resolved) pass. Host names go through a
// fake resolver, so the outcome never depends on this machine's DNS.
import { describe, expect, it } from '@jest/globals';
import { createNetPolicy, MAX_URL_LENGTH } from './policy.ts';
import { fakeResolver } from './test-resolver.ts';

const zone: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'agents.example.org': ['2606:4700::6810:84e5', '104.16.132.229'],
  'xn--bcher-kva.example': ['93.184.215.14'],
  'rebind.example.com': ['93.184.215.14', '127.0.0.1'],
  'internal.example.com': ['10.0.0.5'],
  'v6-private.example.com': ['fd12:3456::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'empty.example.com': [],
};

const allowed: string[] = [
  'https://93.184.215.14/hook',
  'https://[2606:4700:4700::1111]/',
  'https://hooks.example.com/events',
  'https://HOOKS.Example.COM./events',
  'https://agents.example.org:8443/.well-known/agent-card.json',
  'https://bücher.example/inbox',
  'https://8.8.8.8:444/path?q=1#frag',
  'https://%31.1.1.1/',
  'https://[64:ff9b::8.8.8.8]/',
  'https://[2002:808:808::1]/',
];

const refused: [string, string][] = [
  // scheme, syntax, user info
  ['http://93.184.215.14/', 'URL must use https'],
  ['ftp://hooks.example.com/', 'URL must use https'],
  ['javascript:alert(1)', 'URL must use https'],
  ['not a url', 'URL is not valid'],
  ['https://1.2.3.4.5/', 'URL is not valid'],
  ['https://[fe80::1%25eth0]/', 'URL is not valid'],
  ['https://user:pass@hooks.example.com/', 'URL must not contain a user name or password'],
  [`https://hooks.example.com/${'a'.repeat(MAX_URL_LENGTH)}`, 'URL is too long: over 2048 characters'],
  ['https://user@hooks.example.com/', 'URL must not contain a user name or password'],
  ['https://:pass@hooks.example.com/', 'URL must not contain a user name or password'],
  ['https://127.0.0.1:443@hooks.example.com/', 'URL must not contain a user name or password'],
  // loopback, however written
  ['https://127.0.0.1/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://2130706433/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://0177.0.0.1/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://0x7f.1/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://127.1/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://0x7f000001/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://017700000001/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://127.0.0.1./', 'address 127.0.0.1 is not public (loopback)'],
  ['https://%31%32%37.0.0.1/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/', 'address 127.0.0.1 is not public (loopback)'],
  ['https://127.255.255.254:8443/', 'address 127.255.255.254 is not public (loopback)'],
  ['https://[::1]/', 'address ::1 is not public (loopback)'],
  // unspecified
  ['https://0.0.0.0/', 'address 0.0.0.0 is not public (unspecified)'],
  ['https://0/', 'address 0.0.0.0 is not public (unspecified)'],
  ['https://[::]/', 'address :: is not public (unspecified)'],
  // IPv4 inside IPv6
  ['https://[::ffff:127.0.0.1]/', 'address ::ffff:7f00:1 is not public (embeds 127.0.0.1, loopback)'],
  ['https://[::ffff:7f00:1]/', 'address ::ffff:7f00:1 is not public (embeds 127.0.0.1, loopback)'],
  ['https://[0:0:0:0:0:ffff:a00:1]/', 'address ::ffff:a00:1 is not public (embeds 10.0.0.1, private)'],
  [
    'https://[::ffff:169.254.169.254]/',
    'address ::ffff:a9fe:a9fe is not public (embeds 169.254.169.254, link-local)',
  ],
  ['https://[::ffff:0:7f00:1]/', 'address ::ffff:0:7f00:1 is not public (embeds 127.0.0.1, loopback)'],
  ['https://[64:ff9b::127.0.0.1]/', 'address 64:ff9b::7f00:1 is not public (embeds 127.0.0.1, loopback)'],
  [
    'https://[64:ff9b::a9fe:a9fe]/',
    'address 64:ff9b::a9fe:a9fe is not public (embeds 169.254.169.254, link-local)',
  ],
  ['https://[64:ff9b:1::a00:1]/', 'address 64:ff9b:1::a00:1 is not public (NAT64 local-use)'],
  ['https://[2002:c0a8:101::1]/', 'address 2002:c0a8:101::1 is not public (embeds 192.168.1.1, private)'],
  [
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'address 2001:0:4136:e378:8000:63bf:3fff:fdd2 is not public (embeds 192.0.2.45, reserved)',
  ],
  ['https://[::127.0.0.1]/', 'address ::7f00:1 is not public (reserved)'],
  // private, link-local, unique-local, metadata
  ['https://10.0.0.1/', 'address 10.0.0.1 is not public (private)'],
  ['https://172.16.5.4/', 'address 172.16.5.4 is not public (private)'],
  ['https://192.168.1.1/', 'address 192.168.1.1 is not public (private)'],
  ['https://169.254.169.254/latest/meta-data/', 'address 169.254.169.254 is not public (link-local)'],
  ['https://[fe80::1]/', 'address fe80::1 is not public (link-local)'],
  ['https://[fd00:ec2::254]/', 'address fd00:ec2::254 is not public (unique-local)'],
  ['https://[fc00::1]/', 'address fc00::1 is not public (unique-local)'],
  // multicast, broadcast, CGNAT, benchmarking, documentation, future use
  ['https://224.0.0.1/', 'address 224.0.0.1 is not public (multicast)'],
  ['https://[ff02::1]/', 'address ff02::1 is not public (multicast)'],
  ['https://255.255.255.255/', 'address 255.255.255.255 is not public (broadcast)'],
  ['https://100.64.0.1/', 'address 100.64.0.1 is not public (carrier-grade NAT)'],
  ['https://100.127.255.254/', 'address 100.127.255.254 is not public (carrier-grade NAT)'],
  ['https://198.18.0.1/', 'address 198.18.0.1 is not public (reserved)'],
  ['https://198.19.255.1/', 'address 198.19.255.1 is not public (reserved)'],
  ['https://192.0.2.10/', 'address 192.0.2.10 is not public (reserved)'],
  ['https://198.51.100.7/', 'address 198.51.100.7 is not public (reserved)'],
  ['https://203.0.113.9/', 'address 203.0.113.9 is not public (reserved)'],
  ['https://[2001:db8::1]/', 'address 2001:db8::1 is not public (reserved)'],
  ['https://[2001:2::1]/', 'address 2001:2::1 is not public (benchmarking)'],
  ['https://240.0.0.1/', 'address 240.0.0.1 is not public (reserved)'],
  ['https://192.0.0.8/', 'address 192.0.0.8 is not public (reserved)'],
  // names refused before DNS
  ['https://localhost/', 'host localhost is not allowed (localhost)'],
  ['https://LOCALHOST./', 'host localhost. is not allowed (localhost)'],
  ['https://api.localhost/', 'host api.localhost is not allowed (localhost)'],
  [
    'https://metadata.google.internal/computeMetadata/v1/',
    'host metadata.google.internal is not allowed (cloud metadata)',
  ],
  ['https://metadata/', 'host metadata must be a fully qualified domain name'],
  ['https://intranet:8080/', 'host intranet must be a fully qualified domain name'],
  // names whose DNS answer is not public, or no answer at all
  ['https://rebind.example.com/', 'host rebind.example.com resolves to a non-public address'],
  ['https://internal.example.com/', 'host internal.example.com resolves to a non-public address'],
  ['https://v6-private.example.com/', 'host v6-private.example.com resolves to a non-public address'],
  ['https://mapped.example.com/', 'host mapped.example.com resolves to a non-public address'],
  ['https://metadata.example.com/', 'host metadata.example.com resolves to a non-public address'],
  ['https://nxdomain.example.com/', 'host nxdomain.example.com could not be resolved'],
  ['https://empty.example.com/', 'host empty.example.com could not be resolved'],
];

describe('checkUrl battery', () => {
  const policy = createNetPolicy({ allowCidrs: [], resolve: fakeResolver(zone) });

  it('has a battery of at least 40 URLs', () => {
    expect(allowed.length + refused.length).toBeGreaterThanOrEqual(40);
  });

  it.each(allowed)('allows %s', async (raw) => {
    const result = await policy.checkUrl(raw);
    expect(result).toEqual({ ok: true, url: new URL(raw) });
  });

  it.each(refused)('refuses %s', async (raw, reason) => {
    expect(await policy.checkUrl(raw)).toEqual({ ok: false, reason });
  });
});
