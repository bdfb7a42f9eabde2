// Decides whether one IP address is public unicast. Range data comes from ipaddr.js; this file only
// adds what ipaddr.js leaves open: IPv6 forms that carry an IPv4 address, and IPv6 space outside 2000::/3.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;
type Address = IPv4 | IPv6;
export type Cidr = [Address, number];

type PublicCheck = { ok: true } | { ok: false; invalid?: never; label: string };
export type AddressClass = PublicCheck | { ok: false; invalid: true };

// ipaddr.js calls every address outside its special list "unicast", including unassigned IPv6 space
// and the deprecated IPv4-compatible ::a.b.c.d; IANA allocates global unicast only from 2000::/3.
const globalUnicastV6 = ipaddr.IPv6.parseCIDR('2000::/3');
// Only the well-known NAT64 prefix has a fixed place for the IPv4 address; the local-use 64:ff9b:1::/48
// is operator-defined, so it is refused outright.
const nat64WellKnown = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const labels: Record<string, string> = {
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  deprecatedSiteLocal: 'site-local',
  rfc6052: 'NAT64 local-use',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT',
};

const labelOf = (range: string): string => labels[range] ?? range;

const isV4 = (addr: Address): addr is IPv4 => addr.kind() === 'ipv4';

const v4FromParts = (high: number, low: number): IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** The IPv4 addresses a packet to this IPv6 address would end up at, for the transition ranges. */
function embeddedV4(addr: IPv6, range: string): IPv4[] | null {
  const p = addr.parts;
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4FromParts(p[6] ?? 0, p[7] ?? 0)];
    case 'rfc6052':
      return addr.match(nat64WellKnown) ? [v4FromParts(p[6] ?? 0, p[7] ?? 0)] : null;
    case '6to4':
      return [v4FromParts(p[1] ?? 0, p[2] ?? 0)];
    case 'teredo':
      // Server address in clear, client address stored inverted (RFC 4380 section 4).
      return [v4FromParts(p[2] ?? 0, p[3] ?? 0), v4FromParts(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)];
    default:
      return null;
  }
}

function classifyParsed(addr: Address): PublicCheck {
  if (isV4(addr)) {
    const range = addr.range();
    return range === 'unicast' ? { ok: true } : { ok: false, label: labelOf(range) };
  }
  const range = addr.range();
  if (range === 'unicast') {
    return addr.match(globalUnicastV6) ? { ok: true } : { ok: false, label: 'reserved' };
  }
  const inner = embeddedV4(addr, range);
  if (!inner) return { ok: false, label: labelOf(range) };
  for (const v4 of inner) {
    const verdict = classifyParsed(v4);
    if (!verdict.ok) return { ok: false, label: `embeds ${v4.toString()}, ${verdict.label}` };
  }
  return { ok: true };
}

/** Strict parse: only the spellings a socket connect would treat as a literal (no octal, hex or short forms). */
export function parseAddress(ip: string): Address | null {
  if (isIP(ip) === 0) return null;
  try {
    return ipaddr.parse(ip);
  } catch {
    return null;
  }
}

export function parseCidrs(cidrs: readonly string[]): Cidr[] {
  return cidrs.map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr);
    } catch {
      throw new Error(`netguard: invalid CIDR in allowCidrs: ${cidr}`);
    }
  });
}

function inAllowList(addr: Address, allow: readonly Cidr[]): boolean {
  // An IPv4-mapped address reaches the IPv4 host, so an IPv4 allow entry covers it as well.
  const forms: Address[] = [addr];
  if (!isV4(addr) && addr.isIPv4MappedAddress()) forms.push(addr.toIPv4Address());
  return forms.some((form) =>
    allow.some(([net, bits]) => net.kind() === form.kind() && form.match(net, bits)),
  );
}

/** `ok` when the address is public unicast or inside an explicitly allowed range. */
export function classifyAddress(ip: string, allow: readonly Cidr[]): AddressClass {
  const addr = parseAddress(ip);
  if (!addr) return { ok: false, invalid: true };
  if (inAllowList(addr, allow)) return { ok: true };
  return classifyParsed(addr);
}
