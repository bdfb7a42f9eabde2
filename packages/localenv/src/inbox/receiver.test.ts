// The inbox's HTTPS receiver, driven over real TLS with a scratch local CA: it keeps each request's method,
// path, headers and exact body bytes, and checks its Standard Webhooks signature with every secret
// registered through the control API. Requests are signed by the official `standardwebhooks`
// package: the right secret verifies (and is named), a wrong one does not, two signatures
// (rotation) are counted, a missing header and an old timestamp are told apart; oversize bodies
// get 413 and the log keeps the latest 200, newest first.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ensureLocalCa } from './ca.ts';
import { createLocalInbox, INBOX_BODY_LIMIT_BYTES, type LocalInbox } from './inbox.ts';
import type { InboxRequest } from './receiver.ts';

const SECRET_A = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const SECRET_B = `whsec_${Buffer.alloc(24, 2).toString('base64')}`;
const SECRET_C = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;

const caDir = mkdtempSync(join(tmpdir(), 'evds-inbox-'));
let caPem: string;
let inbox: LocalInbox;
let url: string;
let controlUrl: string;

beforeAll(async () => {
  const ca = await ensureLocalCa(caDir);
  caPem = ca.caPem;
  inbox = createLocalInbox({ tls: ca.server });
  ({ url, controlUrl } = await inbox.start());
});
afterAll(async () => {
  await inbox.destroy();
  rmSync(caDir, { recursive: true, force: true });
});
beforeEach(async () => {
  expect((await fetch(`${controlUrl}/requests`, { method: 'DELETE' })).status).toBe(204);
});

function send(
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, ca: caPem, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function signed(secrets: string[], body: string, at = new Date()): Record<string, string> {
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

async function register(label: string, secret: string): Promise<void> {
  const res = await fetch(`${controlUrl}/secrets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label, secret }),
  });
  expect(res.status).toBe(204);
}

async function received(): Promise<InboxRequest[]> {
  const res = await fetch(`${controlUrl}/requests`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { requests: InboxRequest[] }).requests;
}

describe('local inbox receiver', () => {
  it('keeps the exact request and verifies a signature made with a registered secret', async () => {
    await register('target-a', SECRET_A);
    const body = '{"type":"order.paid",  "note":"café ✓"}\n';
    const before = Date.now();
    const res = await send('/hooks/local-inbox?x=1', body, { ...signed([SECRET_A], body), 'X-Extra': 'yes' });
    expect(res).toEqual({ status: 200, body: '{"received":true}' });
    const [r, ...rest] = await received();
    expect(rest).toHaveLength(0);
    expect(r).toMatchObject({
      method: 'POST',
      path: '/hooks/local-inbox?x=1',
      body,
      signature: {
        verified: true,
        signatures: 1,
        matched: 'target-a',
        detail: 'verified with the signing secret of target target-a',
      },
    });
    expect(r!.headers['x-extra']).toBe('yes');
    expect(r!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(r!.received_at).toBeGreaterThanOrEqual(before);
    expect(r!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not verify with a secret nobody registered, and says how many signatures it saw', async () => {
    await register('target-a', SECRET_A);
    const body = '{"n":1}';
    await send('/hooks/x', body, signed([SECRET_C], body));
    const [r] = await received();
    expect(r!.signature).toEqual({
      verified: false,
      signatures: 1,
      matched: null,
      detail: 'no known secret matches (1 signature)',
    });
  });

  it('counts both signatures while a secret rotates and names the label that matched', async () => {
    await register('target-a', SECRET_A);
    await register('target-b', SECRET_B);
    const body = '{"n":2}';
    await send('/hooks/x', body, signed([SECRET_B, SECRET_C], body));
    await send('/hooks/x', body, signed([SECRET_C, SECRET_C], body));
    const [unknown, rotating] = await received();
    expect(rotating!.signature).toMatchObject({ verified: true, signatures: 2, matched: 'target-b' });
    expect(unknown!.signature).toMatchObject({
      verified: false,
      signatures: 2,
      detail: 'no known secret matches (2 signatures)',
    });
  });

  it('tells a missing header, a changed body and an old timestamp apart', async () => {
    await register('target-a', SECRET_A);
    await send('/plain', '{}', { 'content-type': 'application/json' });
    const body = '{"amount":10}';
    await send('/hooks/x', '{"amount":11}', signed([SECRET_A], body));
    await send('/hooks/x', body, signed([SECRET_A], body, new Date(Date.now() - 10 * 60_000)));
    const [old, tampered, plain] = await received();
    expect(plain!.signature).toMatchObject({
      verified: false,
      signatures: 0,
      detail: 'no webhook-signature header',
    });
    expect(tampered!.signature.verified).toBe(false);
    expect(tampered!.signature.detail).toMatch(/^no known secret matches/);
    expect(old!.signature.verified).toBe(false);
    expect(old!.signature.detail).toMatch(/^timestamp too old/);
  });

  it('answers 413 to a body over the limit and still lists the request, without its bytes', async () => {
    const big = Buffer.alloc(INBOX_BODY_LIMIT_BYTES + 1, 'a');
    const res = await send('/hooks/big', big, { 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'payload_too_large' });
    const [r] = await received();
    expect(r).toMatchObject({ path: '/hooks/big', body: '', signature: { verified: false } });
    // A body right at the limit is kept whole.
    const atLimit = Buffer.alloc(INBOX_BODY_LIMIT_BYTES, 'b');
    expect((await send('/hooks/edge', atLimit)).status).toBe(200);
    expect((await received())[0]!.body).toHaveLength(INBOX_BODY_LIMIT_BYTES);
  });

  it('answers 405 to other methods but lists them too', async () => {
    const res = await send('/hooks/x', '', {}, 'GET');
    expect(res.status).toBe(405);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'method_not_allowed' });
    expect((await received())[0]).toMatchObject({ method: 'GET', path: '/hooks/x' });
  });

  it('keeps the latest 200 requests, newest first', async () => {
    for (let i = 0; i < 205; i++) await send(`/n/${i}`, '{}');
    const list = await received();
    expect(list).toHaveLength(200);
    expect(list[0]!.path).toBe('/n/204');
    expect(list[199]!.path).toBe('/n/5');
  });
});
