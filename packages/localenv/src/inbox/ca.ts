// The local certificate authority of development: made once under the data dir and reused, so the
// file the services trust (NODE_EXTRA_CA_CERTS) stays the same from one start to the next; the
// server certificate it signs for 127.0.0.1 and localhost is remade only when it stops being usable.
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCertificateAuthority, issueServerCertificate, type KeyPair } from '../certificates.ts';

export interface LocalCa {
  /** The CA certificate (PEM): the one file a client needs to trust the inbox. */
  caFile: string;
  caPem: string;
  /** The inbox's server certificate and key (PEM), signed by the CA. */
  server: { key: string; cert: string };
  /** What this call did, for the start script's log. */
  created: { ca: boolean; server: boolean };
}

const DAY_MS = 86_400_000;
const CA_DAYS = 3650;
const SERVER_DAYS = 397;
// Remade a while before they lapse, so a long-running start never serves an expired certificate.
const CA_MARGIN_DAYS = 60;
const SERVER_MARGIN_DAYS = 30;

const files = (dir: string) => ({
  caKey: join(dir, 'ca-key.pem'),
  caCert: join(dir, 'ca.pem'),
  serverKey: join(dir, 'server-key.pem'),
  serverCert: join(dir, 'server.pem'),
});

/** Creates the CA and server certificate in `dir` when missing or no longer usable; reuses them otherwise. */
export async function ensureLocalCa(dir: string): Promise<LocalCa> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const f = files(dir);
  let ca = readPair(f.caKey, f.caCert);
  const caCreated = !ca || !caUsable(ca.cert);
  if (caCreated) {
    ca = await createCa();
    writeKey(f.caKey, ca.key);
    writeFileSync(f.caCert, ca.cert);
  }
  const caPair = ca!;
  let server = readPair(f.serverKey, f.serverCert);
  const serverCreated = caCreated || !server || !serverUsable(server.cert, caPair.cert);
  if (serverCreated) {
    server = await createServerCert(caPair);
    writeKey(f.serverKey, server.key);
    writeFileSync(f.serverCert, server.cert);
  }
  // Keys made by an older run (or copied in) are tightened too.
  chmodSync(f.caKey, 0o600);
  chmodSync(f.serverKey, 0o600);
  return {
    caFile: f.caCert,
    caPem: caPair.cert,
    server: server!,
    created: { ca: caCreated, server: serverCreated },
  };
}

type Pair = KeyPair;

function readPair(keyFile: string, certFile: string): Pair | null {
  if (!existsSync(keyFile) || !existsSync(certFile)) return null;
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
}

function writeKey(file: string, pem: string): void {
  writeFileSync(file, pem, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function parse(pem: string): X509Certificate | null {
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}

function validLongEnough(cert: X509Certificate, marginDays: number): boolean {
  const now = Date.now();
  return cert.validFromDate.getTime() <= now && cert.validToDate.getTime() > now + marginDays * DAY_MS;
}

function caUsable(pem: string): boolean {
  const cert = parse(pem);
  return cert !== null && cert.ca && validLongEnough(cert, CA_MARGIN_DAYS);
}

function serverUsable(pem: string, caPem: string): boolean {
  const cert = parse(pem);
  const ca = parse(caPem);
  if (!cert || !ca || !validLongEnough(cert, SERVER_MARGIN_DAYS)) return false;
  // Signed by this CA (not one an earlier run replaced) and naming both local hosts.
  return (
    cert.checkIssued(ca) &&
    cert.verify(ca.publicKey) &&
    cert.checkIP('127.0.0.1') !== undefined &&
    cert.checkHost('localhost') !== undefined
  );
}

const createCa = (): Promise<Pair> => createCertificateAuthority('evds local development CA', CA_DAYS);

const createServerCert = (ca: Pair): Promise<Pair> =>
  issueServerCertificate(ca, {
    commonName: 'evds local inbox',
    days: SERVER_DAYS,
    ips: ['127.0.0.1'],
    names: ['localhost'],
  });
