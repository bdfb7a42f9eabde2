// Proves the Agent Card rules without a network: parsing (JSON object, BOM tolerated), the interface
// choice (first HTTP+JSON 1.x entry, binding compared case-insensitively, https only, the policy asked,
// tenant kept), pre-1.0 cards named as such, reasons that say what each entry lacked, auth warnings,
// and the message:send URL (no trailing slash, tenant as a path segment). A hostile card (a URL of a
// megabyte, 10,000 interfaces, a huge binding, a tenant that makes the message:send URL too long or
// cannot be encoded) is answered at once with a short reason.
import { describe, expect, it } from '@jest/globals';
import { createNetPolicy, MAX_URL_LENGTH, type UrlCheck } from '@evds/netguard';
import {
  authWarnings,
  chooseInterface,
  MAX_CARD_INTERFACES,
  messageSendUrl,
  parseAgentCard,
} from './card.ts';

const allowAll = (raw: string): Promise<UrlCheck> => Promise.resolve({ ok: true, url: new URL(raw) });
const refuse10 = async (raw: string): Promise<UrlCheck> =>
  raw.includes('10.0.0.1')
    ? { ok: false, reason: 'address 10.0.0.1 is not public (private)' }
    : allowAll(raw);

const card = (supportedInterfaces: unknown) => ({
  name: 'agent',
  description: 'd',
  version: '1.0.0',
  capabilities: {},
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json'],
  skills: [],
  supportedInterfaces,
});

describe('parseAgentCard', () => {
  it('parses a JSON object, tolerating a byte-order mark', () => {
    expect(parseAgentCard(Buffer.from('\ufeff{"name":"a"}'))).toEqual({ ok: true, card: { name: 'a' } });
  });
  it.each([
    ['not JSON', '<html>', 'the Agent Card is not valid JSON'],
    ['an array', '[]', 'the Agent Card is not a JSON object'],
    ['null', 'null', 'the Agent Card is not a JSON object'],
  ])('refuses %s', (_n, text, reason) => {
    expect(parseAgentCard(Buffer.from(text))).toEqual({ ok: false, reason });
  });
});

describe('chooseInterface', () => {
  it('takes the first HTTP+JSON 1.x https entry the policy allows, binding in any case', async () => {
    const r = await chooseInterface(
      card([
        { url: 'https://a.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'https://a.example/old', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
        { url: 'http://a.example/plain', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: 'https://10.0.0.1/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        {
          url: 'https://a.example/rest/',
          protocolBinding: 'http+json',
          protocolVersion: '1.0',
          tenant: 't-1',
        },
        { url: 'https://a.example/later', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ]),
      refuse10,
    );
    expect(r).toEqual({
      ok: true,
      iface: { url: 'https://a.example/rest/', binding: 'http+json', version: '1.0', tenant: 't-1' },
    });
  });

  it('accepts later 1.x versions and drops an empty tenant', async () => {
    const r = await chooseInterface(
      card([{ url: 'https://a.example/', protocolBinding: 'HTTP+JSON', protocolVersion: '1.2', tenant: '' }]),
      allowAll,
    );
    expect(r).toEqual({
      ok: true,
      iface: { url: 'https://a.example/', binding: 'HTTP+JSON', version: '1.2' },
    });
  });

  it('says why no entry was usable', async () => {
    const r = await chooseInterface(
      card([
        { url: 'https://a.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'http://a.example/', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: 'https://10.0.0.1/', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: 'https://a.example/', protocolBinding: 'HTTP+JSON', protocolVersion: '2.0' },
        { url: 'https://a.example/' },
        'x',
      ]),
      refuse10,
    );
    expect(r.ok).toBe(false);
    const reason = r.ok ? '' : r.reason;
    expect(reason).toMatch(/^the Agent Card has no usable A2A v1 HTTP\+JSON interface/);
    expect(reason).toContain('#1: binding JSONRPC is not HTTP+JSON');
    expect(reason).toContain('#2: url http://a.example/ is not https');
    expect(reason).toContain('#3: url https://10.0.0.1/ is refused by the network policy');
    expect(reason).toContain('#4: protocol version 2.0 is not 1.x');
    expect(reason).toContain('#5: url, protocolBinding and protocolVersion must be strings');
    expect(reason).toContain('#6: not an object');
  });

  it('names a pre-1.0 card', async () => {
    const r = await chooseInterface(
      {
        name: 'old',
        url: 'https://a.example/a2a',
        preferredTransport: 'JSONRPC',
        additionalInterfaces: [],
        protocolVersion: '0.3.0',
      },
      allowAll,
    );
    expect(r).toEqual({
      ok: false,
      reason:
        'the Agent Card is a pre-1.0 card (protocolVersion 0.3.0): it has top-level url, preferredTransport, ' +
        'additionalInterfaces, protocolVersion and no supportedInterfaces; an A2A v1.0 card is required',
    });
  });

  it('refuses a card without interfaces', async () => {
    for (const c of [{ name: 'x' }, card([]), card('x')])
      expect(await chooseInterface(c, allowAll)).toEqual({
        ok: false,
        reason: 'the Agent Card has no supportedInterfaces',
      });
  });
});

describe('chooseInterface on a hostile card', () => {
  /** The real policy; the card's names answer from its host table (a private address), never DNS. */
  const counted = () => {
    const policy = createNetPolicy({ allowCidrs: [], testHosts: { 'agent.example': ['10.1.2.3'] } });
    const calls: string[] = [];
    const checkUrl = (url: string) => {
      calls.push(url);
      return policy.checkUrl(url);
    };
    return { calls, checkUrl };
  };
  const timed = async <T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> => {
    const started = performance.now();
    const result = await run();
    return { result, ms: performance.now() - started };
  };
  const v1 = { protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' };

  it('refuses an interface URL over the URL length cap without parsing, resolving or quoting it', async () => {
    const { calls, checkUrl } = counted();
    const urls = [
      `https://agent.example/${'/'.repeat(1_000_000)}x`,
      `https://a${'.'.repeat(1_000_000)}x/`,
      `https://agent.example/${'a'.repeat(MAX_URL_LENGTH)}`,
    ];
    const { result, ms } = await timed(() =>
      chooseInterface(card(urls.map((url) => ({ url, ...v1 }))), checkUrl),
    );
    expect(result).toEqual({
      ok: false,
      reason:
        'the Agent Card has no usable A2A v1 HTTP+JSON interface (#1: url is too long: over 2048 characters; ' +
        '#2: url is too long: over 2048 characters; #3: url is too long: over 2048 characters)',
    });
    expect(calls).toEqual([]);
    expect(ms).toBeLessThan(100);
  });

  it('examines the first 32 of 10,000 interfaces and says so', async () => {
    const { calls, checkUrl } = counted();
    const entries = Array.from({ length: 10_000 }, (_, i) => ({ url: `https://agent.example/${i}`, ...v1 }));
    const { result, ms } = await timed(() => chooseInterface(card(entries), checkUrl));
    expect(calls).toHaveLength(MAX_CARD_INTERFACES);
    expect(result.ok).toBe(false);
    const reason = result.ok ? '' : result.reason;
    expect(reason).toContain(
      '#32: url https://agent.example/31 is refused by the network policy: ' +
        'host agent.example resolves to a non-public address',
    );
    expect(reason).not.toContain('#33');
    expect(reason).not.toContain('10.1.2.3');
    expect(reason).toMatch(/; only the first 32 of 10000 entries are examined\)$/);
    expect(ms).toBeLessThan(500);
  });

  it('takes a usable interface that comes after 31 unusable ones, and none after the 32nd', async () => {
    const usable = { url: 'https://agent.example/a2a', ...v1 };
    const junk = Array.from({ length: MAX_CARD_INTERFACES - 1 }, () => 'x');
    const allowAny = (raw: string): Promise<UrlCheck> => Promise.resolve({ ok: true, url: new URL(raw) });
    expect((await chooseInterface(card([...junk, usable]), allowAny)).ok).toBe(true);
    expect((await chooseInterface(card([...junk, 'x', usable]), allowAny)).ok).toBe(false);
  });

  it('refuses a tenant that would make the message:send URL too long, before resolving', async () => {
    const { calls, checkUrl } = counted();
    const url = 'https://agent.example/a2a';
    // Fits: the message:send URL is exactly the cap. A tenant that grows when encoded is judged encoded.
    const fits = 'a'.repeat(MAX_URL_LENGTH - `${url}//message:send`.length);
    const tenants = [`${fits}a`, 'é'.repeat(400), 'x'.repeat(256 * 1024)];
    const { result, ms } = await timed(() =>
      chooseInterface(card(tenants.map((tenant) => ({ url, tenant, ...v1 }))), checkUrl),
    );
    const tooLong = 'tenant is too long: the message:send URL would be over 2048 characters';
    expect(result).toEqual({
      ok: false,
      reason: `the Agent Card has no usable A2A v1 HTTP+JSON interface (#1: ${tooLong}; #2: ${tooLong}; #3: ${tooLong})`,
    });
    expect(calls).toEqual([]);
    expect(ms).toBeLessThan(100);

    const r = await chooseInterface(card([{ url, tenant: fits, ...v1 }]), allowAll);
    expect(r).toEqual({ ok: true, iface: { url, binding: 'HTTP+JSON', version: '1.0', tenant: fits } });
    expect(messageSendUrl(r.ok ? r.iface : { url, binding: '', version: '' })).toHaveLength(MAX_URL_LENGTH);
  });

  it('refuses a tenant that cannot be encoded or stored (lone surrogate, NUL)', async () => {
    const r = await chooseInterface(
      card([
        { url: 'https://a.example/', tenant: 'a\ud800b', ...v1 },
        { url: 'https://a.example/', tenant: 'a\u0000b', ...v1 },
      ]),
      allowAll,
    );
    const why = 'tenant must be well-formed Unicode without NUL characters';
    expect(r).toEqual({
      ok: false,
      reason: `the Agent Card has no usable A2A v1 HTTP+JSON interface (#1: ${why}; #2: ${why})`,
    });
  });

  it('quotes at most 200 characters of a field it refuses', async () => {
    const binding = 'B'.repeat(100_000);
    const r = await chooseInterface(
      card([{ url: 'https://a.example/', protocolBinding: binding, protocolVersion: '1.0' }]),
      allowAll,
    );
    expect(r).toEqual({
      ok: false,
      reason: `the Agent Card has no usable A2A v1 HTTP+JSON interface (#1: binding ${'B'.repeat(200)}… is not HTTP+JSON)`,
    });
  });
});

describe('authWarnings', () => {
  const secured = {
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
  it('warns when the card requires auth and the target sends none', () => {
    expect(authWarnings(secured, 'none')).toEqual([
      expect.stringContaining('requires authentication (bearer)'),
    ]);
    expect(authWarnings(secured, 'bearer')).toEqual([]);
    expect(authWarnings({}, 'none')).toEqual([]);
  });
});

describe('messageSendUrl', () => {
  it('drops trailing slashes and puts the tenant in the path', () => {
    expect(messageSendUrl({ url: 'https://a.example/rest//', binding: 'HTTP+JSON', version: '1.0' })).toBe(
      'https://a.example/rest/message:send',
    );
    expect(
      messageSendUrl({ url: 'https://a.example/rest', binding: 'HTTP+JSON', version: '1.0', tenant: 'a b' }),
    ).toBe('https://a.example/rest/a%20b/message:send');
  });

  it('trims a million slashes at once', () => {
    const url = `https://a.example/rest${'/'.repeat(1_000_000)}`;
    const started = performance.now();
    expect(messageSendUrl({ url, binding: 'HTTP+JSON', version: '1.0' })).toBe(
      'https://a.example/rest/message:send',
    );
    expect(performance.now() - started).toBeLessThan(100);
  });
});
