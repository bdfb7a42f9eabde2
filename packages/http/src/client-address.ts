import { isIPv4, isIPv6, SocketAddress } from 'node:net';

export interface ClientAddress {
  /** One spelling per address: dotted quad for IPv4 (also when it arrives IPv4-mapped), compressed IPv6. */
  address: string;
  /** IPv6 only: the /64 network, e.g. "2001:db8:1:2::/64", the block one subscriber usually holds. */
  prefix64?: string;
}

/**
 * The keys a client's requests are counted under. An IPv6 subscriber usually owns a whole /64, so
 * counting single addresses alone lets one client rotate through billions of them. Anything that is
 * not an IP address (no trusted proxy said so) is counted under its own text, as before.
 */
export function clientAddress(ip: string | undefined): ClientAddress {
  if (!ip) return { address: 'unknown' };
  if (isIPv4(ip) || !isIPv6(ip)) return { address: ip };
  // SocketAddress prints the address as inet_ntop does (lower case, longest zero run as "::", no zone).
  const address = new SocketAddress({ address: ip, family: 'ipv6' }).address;
  const words = hextets(address);
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    const [hi = 0, lo = 0] = words.slice(6);
    return { address: [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.') };
  }
  const network = `${words
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::`;
  return { address, prefix64: `${new SocketAddress({ address: network, family: 'ipv6' }).address}/64` };
}

/** The eight 16-bit words of a valid IPv6 address ("::" expanded, a dotted IPv4 tail as two words). */
function hextets(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const words = (part: string | undefined): number[] =>
    !part
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = words(head);
  const right = words(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
