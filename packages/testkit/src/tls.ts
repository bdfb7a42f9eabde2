import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import selfsigned from 'selfsigned';

export interface TestCa {
  /** PEM of the CA; services under test trust it through NODE_EXTRA_CA_CERTS=caFile. */
  caPem: string;
  caFile: string;
  /** A server certificate for 127.0.0.1, ::1 and *.evds.test (names a test DNS server answers) signed by this CA. */
  server: { key: string; cert: string };
}

const days = (n: number) => new Date(Date.now() + n * 86400_000);

/** A throw-away certificate authority and a 127.0.0.1 server certificate it signed. */
export async function createTestCa(): Promise<TestCa> {
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'evds test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: days(-1),
    notAfterDate: days(30),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: days(-1),
    notAfterDate: days(30),
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
          { type: 2, value: '*.evds.test' },
        ],
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'evds-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  return { caPem: ca.cert, caFile, server: { key: server.private, cert: server.cert } };
}

/** A certificate nobody trusts, for "bad certificate" cases. */
export async function createUntrustedCert(): Promise<{ key: string; cert: string }> {
  const c = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  return { key: c.private, cert: c.cert };
}
