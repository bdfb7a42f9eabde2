// The network policy for every URL a user gives us (decisions section 8): https only, no user info,
// and every address the host stands for must be public unicast. The same policy's `lookup` is
// given to the HTTP agent, so the check is repeated on the address actually connected to.
import { isIPv4, type LookupFunction } from 'node:net';
import { classifyAddress, parseCidrs } from './address.ts';
import { createDnsResolver, DNS_DEFAULTS, type DnsOptions } from './dns-resolver.ts';
import { nonPublicName, type NameRefusal } from './errors.ts';
import { hostNameProblem } from './host-name.ts';
import { createGuardedLookup, type AddressCheck, type Resolve } from './lookup.ts';
import { normalizeHostName } from './trim.ts';

export type { AddressCheck, Resolve } from './lookup.ts';
export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The longest URL taken anywhere: a user's (the API answers 400 above it) or an Agent Card's (refused
 * like any URL the policy refuses). Nothing longer is parsed, trimmed or resolved.
 */
export const MAX_URL_LENGTH = 2048;

export type NetPolicyOptions = {
  /** Ranges let through although not public: development and tests only (config refuses it in production). */
  allowCidrs: readonly string[];
  /** Host name to addresses; tests inject one, the default asks DNS (`dns`) through c-ares. */
  resolve?: Resolve;
  /** Servers, time-out, tries and concurrency of the default resolver (DNS_DEFAULTS when absent). */
  dns?: DnsOptions;
  /**
   * Fixed answers for some names, given before DNS is asked: tests only (config refuses it in
   * production), for a name that must resolve differently at delivery than at creation.
   */
  testHosts?: Readonly<Record<string, readonly string[]>>;
  /** Told the address behind each refused host name (for the server log); the reason never names it. */
  onNameRefused?: (refusal: NameRefusal) => void;
};

// Properties rather than methods, so each can be passed around unbound (e.g. `lookup` to an agent).
export type NetPolicy = {
  checkUrl: (raw: string) => Promise<UrlCheck>;
  isAllowedAddress: (ip: string) => AddressCheck;
  lookup: LookupFunction;
};

/** `fallback`, except for the names in `hosts`, which answer from the table (like /etc/hosts). */
export function hostTableResolve(
  hosts: Readonly<Record<string, readonly string[]>>,
  fallback: Resolve,
): Resolve {
  if (Object.keys(hosts).length === 0) return fallback;
  return (host) => {
    const fixed = hosts[normalizeHostName(host)];
    return fixed ? Promise.resolve([...fixed]) : fallback(host);
  };
}

const refuse = (reason: string): UrlCheck => ({ ok: false, reason });

export function createNetPolicy(options: NetPolicyOptions): NetPolicy {
  const allow = parseCidrs(options.allowCidrs);
  const onNameRefused = options.onNameRefused ?? (() => undefined);
  const resolve =
    options.resolve ??
    hostTableResolve(options.testHosts ?? {}, createDnsResolver(options.dns ?? DNS_DEFAULTS));

  const isAllowedAddress = (ip: string): AddressCheck => {
    const verdict = classifyAddress(ip, allow);
    if (verdict.ok) return verdict;
    if (verdict.invalid) return { ok: false, reason: `${ip} is not an IP address` };
    return { ok: false, reason: `address ${ip} is not public (${verdict.label})` };
  };

  const checkHostName = async (host: string): Promise<string | null> => {
    const problem = hostNameProblem(host);
    if (problem) return problem;
    let addresses: string[];
    try {
      addresses = await resolve(host);
    } catch {
      return `host ${host} could not be resolved`;
    }
    if (addresses.length === 0) return `host ${host} could not be resolved`;
    for (const address of addresses) {
      const verdict = isAllowedAddress(address);
      if (verdict.ok) continue;
      onNameRefused({ host, address, reason: verdict.reason });
      return nonPublicName(host);
    }
    return null;
  };

  const checkUrl = async (raw: string): Promise<UrlCheck> => {
    if (raw.length > MAX_URL_LENGTH) return refuse(`URL is too long: over ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refuse('URL is not valid');
    }
    if (url.protocol !== 'https:') return refuse('URL must use https');
    if (url.username !== '' || url.password !== '')
      return refuse('URL must not contain a user name or password');
    // The URL parser has already turned decimal, octal, hex and short IPv4 spellings into dotted
    // form and compressed IPv6, so a literal is either bracketed IPv6 or dotted IPv4 here.
    const host = url.hostname;
    if (host.startsWith('[') && host.endsWith(']')) {
      const verdict = isAllowedAddress(host.slice(1, -1));
      return verdict.ok ? { ok: true, url } : refuse(verdict.reason);
    }
    if (isIPv4(host)) {
      const verdict = isAllowedAddress(host);
      return verdict.ok ? { ok: true, url } : refuse(verdict.reason);
    }
    const problem = await checkHostName(host);
    return problem ? refuse(problem) : { ok: true, url };
  };

  return {
    checkUrl,
    isAllowedAddress,
    lookup: createGuardedLookup(resolve, isAllowedAddress, onNameRefused),
  };
}
