// Proves the Agent Card rules without a network: parsing (JSON object, BOM tolerated), the interface
// choice (first HTTP+JSON 1.x entry, binding compared case-insensitively, https only, the policy asked,
// tenant kept), pre-1.0 cards named as such, reasons that say what each entry lacked, auth warnings,
// and the message:send URL (no trailing slash, tenant as a path segment).
import { describe, expect, it } from '@jest/globals';
import type { UrlCheck } from '@evds/netguard';
import { authWarnings, chooseInterface, messageSendUrl, parseAgentCard } from './card.ts';

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
});
