// Host names refused before any DNS lookup. The resolved addresses are checked as well; these rules
// exist for names whose meaning depends on the machine that resolves them, not on public DNS.
import { normalizeHostName } from './trim.ts';

// Cloud metadata names answer on link-local addresses, which the address check refuses anyway;
// naming them gives the API user a clearer reason.
const metadataNames = new Set(['metadata.google.internal']);

/** A short reason when the host name is refused outright, otherwise null. `host` is a URL hostname. */
export function hostNameProblem(host: string): string | null {
  const name = normalizeHostName(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return `host ${host} is not allowed (localhost)`;
  if (metadataNames.has(name)) return `host ${host} is not allowed (cloud metadata)`;
  // A name without a dot is completed from the resolver's search domains, i.e. the local network.
  if (!name.includes('.')) return `host ${host} must be a fully qualified domain name`;
  return null;
}
