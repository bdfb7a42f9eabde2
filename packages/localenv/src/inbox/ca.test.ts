// The local CA is made once and reused: a second start under the same directory keeps the same CA
// and server certificate, a client that trusts only that CA reaches the inbox over real HTTPS (on
// 127.0.0.1 and localhost) before and after a restart, the keys are mode 0600, and a server
// certificate that went missing is remade under the same CA.
import { afterEach, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLocalCa } from './ca.ts';
import { createLocalInbox, type LocalInbox } from './inbox.ts';

const dirs: string[] = [];
const inboxes: LocalInbox[] = [];
afterEach(async () => {
  await Promise.all(inboxes.splice(0).map((i) => i.destroy()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'evds-inbox-ca-'));
  dirs.push(d);
  return join(d, 'local-ca');
}

/** A POST over real TLS trusting `ca` only (undefined: the system's default roots). */
function post(url: string, ca: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', ca, headers: { 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

async function startInbox(tls: { key: string; cert: string }) {
  const inbox = createLocalInbox({ tls });
  inboxes.push(inbox);
  return inbox.start();
}

describe('local CA', () => {
  it('is created once with 0600 keys and reused, server certificate included', async () => {
    const dir = scratch();
    const first = await ensureLocalCa(dir);
    expect(first.created).toEqual({ ca: true, server: true });
    for (const key of ['ca-key.pem', 'server-key.pem']) {
      expect(statSync(join(dir, key)).mode & 0o777).toBe(0o600);
    }
    const second = await ensureLocalCa(dir);
    expect(second.created).toEqual({ ca: false, server: false });
    expect(second.caPem).toBe(first.caPem);
    expect(second.server.cert).toBe(first.server.cert);
    expect(second.caFile).toBe(first.caFile);

    const ca = new X509Certificate(first.caPem);
    const server = new X509Certificate(first.server.cert);
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.validToDate.getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
  });

  it('serves real HTTPS that a client trusting only the CA accepts, across two starts', async () => {
    const dir = scratch();
    const first = await ensureLocalCa(dir);
    const a = await startInbox(first.server);
    expect(await post(`${a.url}/hooks/one`, first.caPem)).toEqual({
      status: 200,
      body: '{"received":true}',
    });
    expect(await post(`https://localhost:${a.port}/hooks/one`, first.caPem)).toMatchObject({ status: 200 });
    // Without the CA the certificate is not trusted: the trust comes from the CA, not from luck.
    await expect(post(`${a.url}/hooks/one`, undefined)).rejects.toThrow(/certificate/i);
    await inboxes.pop()!.destroy();

    const again = await ensureLocalCa(dir);
    const b = await startInbox(again.server);
    // The client still holds the first run's CA only.
    expect(await post(`${b.url}/hooks/two`, first.caPem)).toMatchObject({ status: 200 });
  });

  it('remakes a missing server certificate under the same CA, and a CA that is not one', async () => {
    const dir = scratch();
    const first = await ensureLocalCa(dir);
    rmSync(join(dir, 'server.pem'));
    const second = await ensureLocalCa(dir);
    expect(second.created).toEqual({ ca: false, server: true });
    expect(second.caPem).toBe(first.caPem);
    expect(second.server.cert).not.toBe(first.server.cert);
    const s = await startInbox(second.server);
    expect(await post(`${s.url}/x`, first.caPem)).toMatchObject({ status: 200 });

    rmSync(join(dir, 'ca-key.pem'));
    const third = await ensureLocalCa(dir);
    expect(third.created).toEqual({ ca: true, server: true });
    expect(third.caPem).not.toBe(first.caPem);
    expect(new X509Certificate(third.server.cert).checkIssued(new X509Certificate(third.caPem))).toBe(true);
    expect(statSync(join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600);
  });
});
