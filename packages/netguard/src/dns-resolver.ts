// Outbound name resolution that one tenant's dead name server cannot turn into everyone's outage.
// dns.lookup runs getaddrinfo on libuv's four shared threads, with no time-out and no way to cancel:
// a handful of names whose server never answers holds every thread, and with them every other lookup,
// Postgres reconnect and scrypt hash in the process. c-ares queries run on the event loop instead and
// give up after `tries` tries of `timeoutMs`; this wrapper bounds how many names are resolved at once
// and how long a lookup may take in all, shares one query among concurrent lookups of a name and
// keeps answers for a short while.
import { Resolver } from 'node:dns/promises';
import type { RecordWithTtl } from 'node:dns';
import { isIP } from 'node:net';
import type { Resolve } from './lookup.ts';
import { normalizeHostName } from './trim.ts';

export type DnsOptions = {
  /** `ip` or `ip:port` (`[ipv6]:port`) entries; empty: the system's (/etc/resolv.conf). */
  servers: readonly string[];
  /** Per query and try; a query is sent `tries` times to each server before it fails. */
  timeoutMs: number;
  tries: number;
  /** Names being resolved at once in this process; more wait (within the lookup's budget). */
  maxConcurrent: number;
};

export const DNS_DEFAULTS: DnsOptions = { servers: [], timeoutMs: 2_000, tries: 2, maxConcurrent: 32 };

export type DnsResolverOptions = Partial<DnsOptions> & {
  /** Longest a positive answer is kept, whatever its TTL says (0: no cache). */
  cacheMaxTtlSeconds?: number;
  cacheMaxEntries?: number;
};

export type DnsResolverStats = { active: number; queued: number; cached: number };
export type DnsResolver = Resolve & {
  /** The longest a lookup takes, waiting for a slot included, before it fails with ETIMEOUT. */
  budgetMs: number;
  stats: () => DnsResolverStats;
};

type Cached = { addresses: readonly string[]; expiresAt: number };

function dnsError(code: string, host: string, detail?: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`resolve ${code} ${host}${detail ? ` (${detail})` : ''}`);
  err.code = code;
  err.syscall = 'resolve';
  return err;
}

const codeOf = (reason: unknown): string => (reason as NodeJS.ErrnoException | null)?.code ?? 'EUNKNOWN';

/** The error of a name both of whose families failed: a time-out says more than a missing record. */
function bothFailed(host: string, reasons: unknown[]): NodeJS.ErrnoException {
  const codes = reasons.map(codeOf);
  if (codes.includes('ETIMEOUT')) return dnsError('ETIMEOUT', host, 'no answer from the DNS server');
  if (codes.every((c) => c === 'ENOTFOUND' || c === 'ENODATA')) return dnsError('ENOTFOUND', host);
  return dnsError(codes.find((c) => c !== 'ENOTFOUND' && c !== 'ENODATA') ?? 'EUNKNOWN', host);
}

export function createDnsResolver(options: DnsResolverOptions = {}): DnsResolver {
  const { servers, timeoutMs, tries, maxConcurrent } = { ...DNS_DEFAULTS, ...options };
  const cacheMaxTtlMs = (options.cacheMaxTtlSeconds ?? 30) * 1000;
  const cacheMaxEntries = options.cacheMaxEntries ?? 1024;
  // c-ares doubles the time-out at each retry; maxTimeout keeps every try at timeoutMs.
  const resolver = new Resolver({ timeout: timeoutMs, tries, maxTimeout: timeoutMs });
  // Throws on a malformed entry, so a bad DNS_SERVERS stops the service at start.
  if (servers.length > 0) resolver.setServers([...servers]);
  // Node looks for expired c-ares queries on a timer of min(timeoutMs, 1 s), so a try may last up
  // to that much longer than timeoutMs; each server gets `tries` of them.
  const tryMs = timeoutMs + Math.min(timeoutMs, 1_000);
  const budgetMs = tryMs * tries * Math.max(1, resolver.getServers().length);

  let active = 0;
  const queue: (() => void)[] = [];
  const pending = new Map<string, Promise<readonly string[]>>();
  const cache = new Map<string, Cached>();

  const release = () => {
    active--;
    queue.shift()?.();
  };

  // One deadline covers the wait for a slot and the queries: behind a wall of dead names a lookup
  // fails within budgetMs instead of waiting for the whole wall. A query cut short keeps its slot
  // until c-ares gives up on it, so the name server never sees more than maxConcurrent names.
  const withSlot = <T>(host: string, run: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        active++;
        void run()
          .then(resolve, reject)
          .finally(() => {
            clearTimeout(deadline);
            release();
          });
      };
      const deadline = setTimeout(() => {
        const queued = queue.indexOf(start);
        if (queued >= 0) queue.splice(queued, 1);
        const why = queued >= 0 ? 'no lookup slot free' : 'no answer from the DNS server';
        reject(dnsError('ETIMEOUT', host, `${why} within ${budgetMs} ms`));
      }, budgetMs);
      if (active < maxConcurrent) start();
      else queue.push(start);
    });

  const remember = (name: string, addresses: string[], records: RecordWithTtl[]) => {
    const ttlMs = Math.min(cacheMaxTtlMs, ...records.map((r) => r.ttl * 1000));
    if (ttlMs <= 0 || cacheMaxEntries <= 0) return;
    cache.delete(name);
    // Map keeps insertion order, so the first key is the oldest entry.
    if (cache.size >= cacheMaxEntries) cache.delete(cache.keys().next().value as string);
    cache.set(name, { addresses, expiresAt: Date.now() + ttlMs });
  };

  // Both families at once: a name with one family answers as soon as both queries are settled.
  const query = async (name: string): Promise<readonly string[]> => {
    const settled = await Promise.allSettled([
      resolver.resolve4(name, { ttl: true }),
      resolver.resolve6(name, { ttl: true }),
    ]);
    const records = settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
    if (records.length === 0) {
      throw bothFailed(
        name,
        settled.map((s): unknown => (s.status === 'rejected' ? s.reason : null)),
      );
    }
    const addresses = records.map((r) => r.address);
    remember(name, addresses, records);
    return addresses;
  };

  const resolve = async (host: string): Promise<string[]> => {
    const name = normalizeHostName(host);
    if (isIP(name) !== 0) return [name];
    const hit = cache.get(name);
    if (hit && hit.expiresAt > Date.now()) return [...hit.addresses];
    if (hit) cache.delete(name);
    let shared = pending.get(name);
    if (!shared) {
      shared = withSlot(host, () => query(name)).finally(() => pending.delete(name));
      pending.set(name, shared);
    }
    return [...(await shared)];
  };

  const stats = (): DnsResolverStats => ({ active, queued: queue.length, cached: cache.size });
  return Object.assign(resolve, { budgetMs, stats });
}
