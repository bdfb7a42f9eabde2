// Certificates for services on this machine: a certificate authority and the server certificates it
// signs (EC P-256, SHA-256). The local inbox keeps its CA under .data/; the test kit makes throw-away ones.
import selfsigned from 'selfsigned';

export interface KeyPair {
  key: string;
  cert: string;
}

const DAY_MS = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY_MS);

/** A CA that may sign server certificates only (no intermediate CAs), valid from yesterday. */
export async function createCertificateAuthority(commonName: string, days: number): Promise<KeyPair> {
  const ca = await selfsigned.generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: at(-1),
    notAfterDate: at(days),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { key: ca.private, cert: ca.cert };
}

/**
 * A server certificate signed by `ca` for the given IP addresses and host names (wildcards allowed).
 * `clientAuth` lets it also stand for its holder as a client (servers that connect to each other, such
 * as a Redis Cluster's nodes over TLS).
 */
export async function issueServerCertificate(
  ca: KeyPair,
  opts: { commonName: string; days: number; ips: string[]; names: string[]; clientAuth?: boolean },
): Promise<KeyPair> {
  const server = await selfsigned.generate([{ name: 'commonName', value: opts.commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: at(-1),
    notAfterDate: at(opts.days),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true, clientAuth: opts.clientAuth ?? false },
      {
        name: 'subjectAltName',
        altNames: [
          ...opts.ips.map((ip) => ({ type: 7 as const, ip })),
          ...opts.names.map((value) => ({ type: 2 as const, value })),
        ],
      },
    ],
  });
  return { key: server.private, cert: server.cert };
}
