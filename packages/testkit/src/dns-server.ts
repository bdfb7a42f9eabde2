import { createSocket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import * as dnsPacket from 'dns-packet';

export interface DnsQuery {
  name: string;
  type: string;
  at: number;
}

export interface DnsServer {
  /** `127.0.0.1:<port>`, as DNS_SERVERS and Resolver#setServers take it. */
  address: string;
  port: number;
  /** Live: name -> addresses (A gets the IPv4 ones, AAAA the IPv6 ones; [] answers no records). */
  table: Map<string, string[]>;
  /** Live: names whose queries are dropped without an answer, like a dead name server. */
  blackHole: Set<string>;
  /** Every query received, in order, answered or not. */
  queries: DnsQuery[];
  /** Queries received for `name` (of `type` when given). */
  count(name: string, type?: string): number;
  close(): Promise<void>;
}

const NXDOMAIN = 3;
const normalize = (name: string) => name.toLowerCase().replace(/\.+$/, '');

/**
 * A real DNS server on UDP 127.0.0.1 (a free port) for tests: it answers the names of its table,
 * says NXDOMAIN for others and never answers the names of its black hole. Both sets can change while
 * it runs, so a name can answer when a target is created and go dead afterwards.
 */
export async function startDnsServer(
  opts: { table?: Record<string, string[]>; blackHole?: Iterable<string>; ttlSeconds?: number } = {},
): Promise<DnsServer> {
  const table = new Map(Object.entries(opts.table ?? {}).map(([k, v]) => [normalize(k), v]));
  const blackHole = new Set([...(opts.blackHole ?? [])].map(normalize));
  const ttl = opts.ttlSeconds ?? 0;
  const queries: DnsQuery[] = [];
  const socket = createSocket('udp4');

  socket.on('message', (msg, peer) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = normalize(question.name);
    queries.push({ name, type: question.type, at: Date.now() });
    if (blackHole.has(name)) return;
    const found = table.get(name);
    const wanted = question.type === 'A' ? isIPv4 : question.type === 'AAAA' ? isIPv6 : () => false;
    const answers: dnsPacket.Answer[] = (found ?? [])
      .filter((ip) => wanted(ip))
      .map((ip) => ({
        type: question.type as 'A' | 'AAAA',
        name: question.name,
        ttl,
        data: ip,
      }));
    const flags =
      dnsPacket.AUTHORITATIVE_ANSWER |
      dnsPacket.RECURSION_DESIRED |
      dnsPacket.RECURSION_AVAILABLE |
      (found ? 0 : NXDOMAIN);
    const reply = dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      flags,
      questions: [question],
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const port = socket.address().port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    table,
    blackHole,
    queries,
    count: (name, type) =>
      queries.filter((q) => q.name === normalize(name) && (type === undefined || q.type === type)).length,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
