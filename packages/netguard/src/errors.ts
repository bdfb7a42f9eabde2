// The error a guarded connection fails with, so delivery code can tell a refusal (permanent: the target
// points somewhere it must never reach) from a DNS or network failure (worth a retry).

export const NETGUARD_REFUSED = 'ERR_NETGUARD_REFUSED';

export class NetguardRefusedError extends Error {
  readonly code = NETGUARD_REFUSED;

  constructor(reason: string) {
    super(reason);
    this.name = 'NetguardRefusedError';
  }
}

/** True for a refusal, also when an HTTP client wrapped it (got and undici keep it as `cause`). */
export function isNetguardRefusal(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as NodeJS.ErrnoException).code === NETGUARD_REFUSED) return true;
  }
  return false;
}

/**
 * The reason given for a host name whose answer is not public. The address stays out of it: it maps the
 * operator's network for whoever chose the name (a URL with a literal address is refused naming that
 * address, which its author wrote). The server log gets the address through `onNameRefused`.
 */
export const nonPublicName = (host: string): string => `host ${host} resolves to a non-public address`;

/** What the server log keeps about a refused host name: the answer the caller is not told. */
export type NameRefusal = { host: string; address: string; reason: string };
