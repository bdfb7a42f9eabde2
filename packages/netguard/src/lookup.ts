// A drop-in for dns.lookup that hands the socket only addresses it has checked: the check and the
// connect use the same answer, so a second DNS response (rebinding) never reaches the socket.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { NetguardRefusedError, nonPublicName, type NameRefusal } from './errors.ts';

export type Resolve = (host: string) => Promise<string[]>;
export type AddressCheck = { ok: true } | { ok: false; reason: string };

function wantedFamily(family: LookupOptions['family']): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  err.code = 'ENOTFOUND';
  err.syscall = 'getaddrinfo';
  return err;
}

async function resolveChecked(
  hostname: string,
  family: 0 | 4 | 6,
  resolve: Resolve,
  check: (ip: string) => AddressCheck,
  onNameRefused: (refusal: NameRefusal) => void,
): Promise<LookupAddress[]> {
  // Node skips lookup for literals on most paths, but not all (and other clients may not skip it).
  const literal = isIP(hostname) !== 0;
  const found = literal ? [hostname] : await resolve(hostname);
  // Every answer is checked, not only the ones of the wanted family: a name with any private
  // address is refused as a whole, as checkUrl does.
  for (const address of found) {
    const verdict = check(address);
    if (verdict.ok) continue;
    if (literal) throw new NetguardRefusedError(verdict.reason);
    onNameRefused({ host: hostname, address, reason: verdict.reason });
    throw new NetguardRefusedError(nonPublicName(hostname));
  }
  const addresses = found
    .map((address) => ({ address, family: isIP(address) }))
    .filter((entry) => family === 0 || entry.family === family);
  if (addresses.length === 0) throw notFound(hostname);
  return addresses;
}

export function createGuardedLookup(
  resolve: Resolve,
  check: (ip: string) => AddressCheck,
  onNameRefused: (refusal: NameRefusal) => void,
): LookupFunction {
  return (hostname, options, callback) => {
    const all = options.all === true;
    // The callback runs outside the promise chain so that an exception thrown by the caller is not
    // swallowed as a rejection or reported as a lookup error.
    resolveChecked(hostname, wantedFamily(options.family), resolve, check, onNameRefused).then(
      (addresses) => {
        const first = addresses[0] as LookupAddress;
        process.nextTick(() => {
          if (all) callback(null, addresses);
          else callback(null, first.address, first.family);
        });
      },
      (err: NodeJS.ErrnoException) => {
        process.nextTick(() => callback(err, all ? [] : ''));
      },
    );
  };
}
