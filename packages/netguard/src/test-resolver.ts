// A stand-in DNS for tests: this machine has no network, and a test must be able to make a public
// looking name answer with a private address.
import type { Resolve } from './lookup.ts';
import { normalizeHostName } from './trim.ts';

export type FakeResolver = Resolve & { calls: string[] };

export function fakeResolver(zone: Record<string, string[]>): FakeResolver {
  const calls: string[] = [];
  const resolve = (host: string): Promise<string[]> => {
    calls.push(host);
    const name = normalizeHostName(host);
    const found = zone[name];
    if (found) return Promise.resolve(found);
    const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`);
    err.code = 'ENOTFOUND';
    return Promise.reject(err);
  };
  return Object.assign(resolve, { calls });
}
