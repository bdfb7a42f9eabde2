import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '@evds/domain';

// N=2^17, r=8: 128 MiB and about a quarter of a second per hash on one core (OWASP's scrypt
// minimum). Hashes made with older parameters are replaced at the next successful login.
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEYLEN = 32;
// scrypt needs 128 * N * r bytes (exactly 128 MiB here); Node refuses to start above maxmem.
const MAXMEM = 256 * 1024 * 1024;

// Each derivation holds 128 MiB outside the JS heap for its quarter second, and libuv would run four
// at once: 512 MiB, the API pod's whole memory limit (infra/k8s/api.yaml), reachable by four
// concurrent logins. The pod has one CPU, so a second derivation at once would not finish any sooner;
// one at a time per process, the others wait their turn.
let deriving = false;
const waiting: (() => void)[] = [];
// The line is short: 16 waiting are four seconds of deriving. A longer one would only make every
// login (the flood's and everyone else's) wait longer before it, and hold its requests open meanwhile.
const MAX_WAITING = 16;

/**
 * Runs `work` in this process's one derivation turn, after those already waiting. With MAX_WAITING
 * in line, refuses at once (503 with Retry-After) without deriving.
 */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (deriving) {
    if (waiting.length >= MAX_WAITING)
      throw new AppError('unavailable', 'too many sign-ins at once; retry shortly', { 'Retry-After': '1' });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else deriving = true;
  try {
    return await work();
  } finally {
    // The turn passes straight to the next in line, so no newcomer can slip in between.
    const next = waiting.shift();
    if (next) next();
    else deriving = false;
  }
}

const derive = (password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEYLEN, { ...opts, maxmem: MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

const encode = (salt: Buffer, hash: Buffer): string =>
  ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');

/**
 * Checked against when the email is unknown, and after a failure against a hash older than today's
 * parameters: made with the current parameters (a zero salt and hash no password derives to), so
 * every failed login costs at least one derivation at today's strength.
 */
export const DUMMY_HASH = encode(Buffer.alloc(16), Buffer.alloc(KEYLEN));

/** "scrypt$N$r$p$salt$hash", base64 parts: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return encode(salt, await inTurn(() => derive(password, salt, PARAMS)));
}

/** Refuses with 503 `unavailable` when too many derivations are already waiting (see MAX_WAITING). */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return inTurn(async () => {
    const ok = await matches(password, stored);
    // Hashes stay at old parameters until their owner's next login, and N=2^14 derives eight times
    // faster than the dummy hash: a quick failure would tell an existing account from an unknown
    // email. In the same turn, so a check that was let in is never refused halfway.
    if (!ok && needsRehash(stored)) await matches(password, DUMMY_HASH);
    return ok;
  });
}

async function matches(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when a stored hash was made with other parameters than today's (then upgraded after a good login). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== PARAMS.N || Number(r) !== PARAMS.r || Number(p) !== PARAMS.p;
}
