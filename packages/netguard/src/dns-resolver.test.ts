// Proves the outbound resolver against a real DNS server on 127.0.0.1 (UDP, from the testkit) that
// answers a table of names and never answers a "black hole": answers of either or both families,
// NXDOMAIN as ENOTFOUND, a dead name failing with ETIMEOUT after the configured tries, one query per
// family however many lookups of a name are in flight, a TTL-honouring cache capped in time, a cap on
// names in flight with a bounded queue wait, and (the reason it exists) the libuv thread pool staying
// free while dead names hang: scrypt and a good name's lookup finish promptly. Last, the network
// policy resolves through it (names only this server knows) and still checks every answer.
import { scrypt } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startDnsServer, type DnsServer } from '../../testkit/src/dns-server.ts';
import { createDnsResolver } from './dns-resolver.ts';
import { isNetguardRefusal } from './errors.ts';
import { createNetPolicy, type NetPolicy } from './policy.ts';

let server: DnsServer;
const dead = (i: number) => `dead-${i}.evds.test`;

beforeAll(async () => {
  server = await startDnsServer({
    table: {
      'both.evds.test': ['93.184.215.14', '2606:4700:4700::1111'],
      'v4.evds.test': ['93.184.215.14'],
      'v6.evds.test': ['2606:4700:4700::1111'],
      'shared.evds.test': ['93.184.215.14'],
      'loopback.evds.test': ['127.0.0.1'],
    },
    blackHole: Array.from({ length: 40 }, (_, i) => dead(i)),
  });
});
afterAll(() => server.close());

const elapsed = (since: number) => Date.now() - since;
const failure = (p: Promise<unknown>): Promise<NodeJS.ErrnoException> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: NodeJS.ErrnoException) => err,
  );
const scryptMs = async (): Promise<number> => {
  const t = Date.now();
  await new Promise((resolve, reject) =>
    scrypt('password', 'salt', 64, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return elapsed(t);
};

describe('createDnsResolver', () => {
  it('answers A and AAAA together, one family alone, and NXDOMAIN as ENOTFOUND', async () => {
    const resolve = createDnsResolver({ servers: [server.address], timeoutMs: 500 });
    expect(await resolve('both.evds.test')).toEqual(['93.184.215.14', '2606:4700:4700::1111']);
    expect(await resolve('V4.evds.test.')).toEqual(['93.184.215.14']);
    expect(await resolve('v6.evds.test')).toEqual(['2606:4700:4700::1111']);
    expect(await resolve('93.184.215.15')).toEqual(['93.184.215.15']);
    const err = await failure(resolve('nowhere.evds.test'));
    expect(err.code).toBe('ENOTFOUND');
    expect(err.message).toBe('resolve ENOTFOUND nowhere.evds.test');
  });

  it('gives up on a name whose server never answers after its tries, with ETIMEOUT', async () => {
    const resolve = createDnsResolver({ servers: [server.address], timeoutMs: 250, tries: 2 });
    const started = Date.now();
    const err = await failure(resolve(dead(0)));
    const took = elapsed(started);
    console.log(
      `black-holed name failed with ${err.code} after ${took} ms (timeoutMs 250, tries 2, budget ${resolve.budgetMs} ms)`,
    );
    expect(err.code).toBe('ETIMEOUT');
    expect(err.message).toContain(dead(0));
    expect(took).toBeGreaterThanOrEqual(450);
    // Slack for a busy machine; the query counts below show both tries were made, and only two.
    expect(took).toBeLessThan(resolve.budgetMs + 500);
    expect(server.count(dead(0), 'A')).toBe(2);
    expect(server.count(dead(0), 'AAAA')).toBe(2);
  });

  it('sends one query per family for any number of concurrent lookups of a name', async () => {
    const resolve = createDnsResolver({ servers: [server.address], timeoutMs: 500 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => resolve('Shared.evds.test')));
    expect(answers.every((a) => a.length === 1 && a[0] === '93.184.215.14')).toBe(true);
    expect(server.count('shared.evds.test', 'A')).toBe(1);
    expect(server.count('shared.evds.test', 'AAAA')).toBe(1);
  });

  it('keeps an answer for its TTL, but never longer than cacheMaxTtlSeconds', async () => {
    const long = await startDnsServer({ table: { 'cached.evds.test': ['93.184.215.14'] }, ttlSeconds: 3600 });
    try {
      const resolve = createDnsResolver({ servers: [long.address], cacheMaxTtlSeconds: 1 });
      await resolve('cached.evds.test');
      await resolve('cached.evds.test');
      expect(long.count('cached.evds.test', 'A')).toBe(1);
      expect(resolve.stats().cached).toBe(1);
      await new Promise((r) => setTimeout(r, 1100));
      await resolve('cached.evds.test');
      expect(long.count('cached.evds.test', 'A')).toBe(2);
    } finally {
      await long.close();
    }
  });

  it('has at most maxConcurrent names in flight; a lookup, queued or not, ends within its budget', async () => {
    const resolve = createDnsResolver({
      servers: [server.address],
      timeoutMs: 200,
      tries: 2,
      maxConcurrent: 2,
    });
    const started = Date.now();
    const deadNames = Array.from({ length: 10 }, (_, i) => dead(10 + i));
    const lookups = deadNames.map((name) => failure(resolve(name)));
    let maxActive = 0;
    const sampler = setInterval(() => (maxActive = Math.max(maxActive, resolve.stats().active)), 5);
    const good = resolve('v4.evds.test').then(
      () => `answered after ${elapsed(started)} ms`,
      (err: NodeJS.ErrnoException) => `${err.code} after ${elapsed(started)} ms`,
    );
    expect(resolve.stats()).toMatchObject({ active: 2, queued: 9 });
    const errors = await Promise.all(lookups);
    const goodOutcome = await good;
    clearInterval(sampler);
    expect(errors.every((e) => e.code === 'ETIMEOUT')).toBe(true);
    // What the server saw: a name is being queried from its first query to its last (its retry);
    // no instant may fall inside more than two names' spans.
    const spans = deadNames
      .map((name) => server.queries.filter((q) => q.name === name).map((q) => q.at))
      .filter((times) => times.length > 0)
      .map((times) => ({ start: Math.min(...times), end: Math.max(...times) }));
    const overlap = Math.max(
      ...spans.map((s) => spans.filter((o) => o.start <= s.start && s.start <= o.end).length),
    );
    console.log(
      `cap 2: ${spans.length} of 10 dead names reached the server, at most ${overlap} at once ` +
        `(at most ${maxActive} in flight, sampled); ` +
        `all failed within ${elapsed(started)} ms (budget ${resolve.budgetMs} ms); the good name queued ` +
        `behind them: ${goodOutcome}`,
    );
    expect(spans.length).toBeGreaterThanOrEqual(2);
    expect(overlap).toBeLessThanOrEqual(2);
    expect(maxActive).toBe(2);
    // The good name fails or succeeds, like every lookup, within the budget (slack for a busy machine).
    expect(elapsed(started)).toBeLessThan(resolve.budgetMs + 500);
  });

  it('leaves the thread pool and other names alone while 16 dead names hang', async () => {
    const baseline = Math.max(...(await Promise.all([scryptMs(), scryptMs(), scryptMs(), scryptMs()])));
    const resolve = createDnsResolver({ servers: [server.address], timeoutMs: 1000, tries: 2 });
    const hanging = Array.from({ length: 16 }, (_, i) => failure(resolve(dead(20 + i))));
    await new Promise((r) => setTimeout(r, 100));
    expect(resolve.stats().active).toBe(16);

    const t = Date.now();
    const [address, ...scrypts] = await Promise.all([
      resolve('v6.evds.test').then(() => elapsed(t)),
      scryptMs(),
      scryptMs(),
      scryptMs(),
      scryptMs(),
    ]);
    const worst = Math.max(...scrypts);
    console.log(
      `with 16 dead names in flight: good-name lookup ${address} ms, 4 parallel scrypt ${worst} ms ` +
        `(${baseline} ms before)`,
    );
    expect(resolve.stats().active).toBe(16);
    // Had the dead lookups held the pool's four threads, both would wait for them (1 s a try at least).
    expect(address).toBeLessThan(1000);
    expect(worst).toBeLessThan(1000);
    expect((await Promise.all(hanging)).every((e) => e.code === 'ETIMEOUT')).toBe(true);
  });
});

describe('the network policy resolves through it, not dns.lookup', () => {
  const lookup = (policy: NetPolicy, host: string): Promise<LookupAddress[]> =>
    new Promise((resolve, reject) => {
      policy.lookup(host, { all: true }, (err, addresses) =>
        err ? reject(err) : resolve(addresses as LookupAddress[]),
      );
    });
  let policy: NetPolicy;
  beforeAll(() => {
    policy = createNetPolicy({
      allowCidrs: [],
      testHosts: { 'fixed.evds.test': ['93.184.215.16'] },
      dns: { servers: [server.address], timeoutMs: 200, tries: 1, maxConcurrent: 4 },
    });
  });

  it('answers names only the configured server knows (the system resolver has no such names)', async () => {
    const before = server.count('both.evds.test', 'A');
    expect(await policy.checkUrl('https://both.evds.test/hook')).toMatchObject({ ok: true });
    expect(await lookup(policy, 'both.evds.test')).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    expect(server.count('both.evds.test', 'A')).toBe(before + 2);
  });

  it('answers test hosts before DNS, and checks every DNS answer at connect time', async () => {
    const before = server.queries.length;
    expect(await lookup(policy, 'fixed.evds.test')).toEqual([{ address: '93.184.215.16', family: 4 }]);
    expect(server.queries.length).toBe(before);
    expect(isNetguardRefusal(await failure(lookup(policy, 'loopback.evds.test')))).toBe(true);
    expect(await policy.checkUrl('https://loopback.evds.test/')).toEqual({
      ok: false,
      reason: 'host loopback.evds.test resolves to a non-public address',
    });
  });

  it('hands a DNS time-out to the connecting client as ETIMEOUT', async () => {
    const err = await failure(lookup(policy, dead(39)));
    expect(err.code).toBe('ETIMEOUT');
    expect(await policy.checkUrl(`https://${dead(39)}/`)).toEqual({
      ok: false,
      reason: `host ${dead(39)} could not be resolved`,
    });
  });
});
