import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueServerCertificate } from '@evds/localenv';
import selfsigned from 'selfsigned';

export interface TestCa {
  /** PEM of the CA; services under test trust it through NODE_EXTRA_CA_CERTS=caFile. */
  caPem: string;
  caFile: string;
  /** A server certificate for 127.0.0.1, ::1 and *.evds.test (names a test DNS server answers) signed by this CA. */
  server: { key: string; cert: string };
}

/** A throw-away certificate authority and a 127.0.0.1 server certificate it signed. */
export async function createTestCa(): Promise<TestCa> {
  const ca = await createCertificateAuthority('evds test CA', 30);
  const server = await issueServerCertificate(ca, {
    commonName: '127.0.0.1',
    days: 30,
    ips: ['127.0.0.1', '::1'],
    names: ['*.evds.test'],
  });
  const dir = mkdtempSync(join(tmpdir(), 'evds-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  return { caPem: ca.cert, caFile, server };
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
