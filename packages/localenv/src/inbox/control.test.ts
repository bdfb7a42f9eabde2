// The inbox's control API over real HTTP on 127.0.0.1: POST /secrets refuses malformed JSON, wrong
// types, unknown fields, unusable secrets, other content types and oversize bodies with {error, code}
// JSON; unknown routes and methods get 404 and 405, a foreign Host header 403; DELETE /requests
// clears the log; registered secrets are kept in a 0600 file and known again after a restart.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ensureLocalCa, type LocalCa } from './ca.ts';
import { CONTROL_BODY_LIMIT_BYTES } from './control.ts';
import { createLocalInbox, type LocalInbox } from './inbox.ts';
import type { InboxRequest } from './receiver.ts';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const dir = mkdtempSync(join(tmpdir(), 'evds-inbox-control-'));
const secretsFile = join(dir, 'secrets.json');
let ca: LocalCa;
let inbox: LocalInbox;
let url: string;
let controlUrl: string;

beforeAll(async () => {
  ca = await ensureLocalCa(join(dir, 'ca'));
  inbox = createLocalInbox({ tls: ca.server, secretsFile });
  ({ url, controlUrl } = await inbox.start());
});
afterAll(async () => {
  await inbox.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function postSecret(body: string, contentType = 'application/json') {
  const res = await fetch(`${controlUrl}/secrets`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { error: string; code: string }) : null };
}

function sendSigned(base: string): Promise<number> {
  const body = '{"hello":"inbox"}';
  const at = new Date();
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/hooks/t`,
      {
        method: 'POST',
        ca: ca.caPem,
        headers: {
          'webhook-id': 'msg_1',
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(SECRET).sign('msg_1', at, body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function list(base = controlUrl): Promise<InboxRequest[]> {
  return ((await (await fetch(`${base}/requests`)).json()) as { requests: InboxRequest[] }).requests;
}

describe('local inbox control API', () => {
  it.each([
    ['malformed JSON', '{"label": "a", ', 400, 'invalid_json', /not valid JSON/],
    ['an array', '[]', 400, 'validation_failed', /^body: must be a JSON object/],
    [
      'a number label',
      JSON.stringify({ label: 1, secret: SECRET }),
      400,
      'validation_failed',
      /^label: must be a string/,
    ],
    [
      'an empty label',
      JSON.stringify({ label: '', secret: SECRET }),
      400,
      'validation_failed',
      /^label: must be 1 to 200/,
    ],
    [
      'a missing secret',
      JSON.stringify({ label: 'a' }),
      400,
      'validation_failed',
      /^secret: must be a string/,
    ],
    [
      'a secret without whsec_',
      JSON.stringify({ label: 'a', secret: 'abc' }),
      400,
      'validation_failed',
      /^secret: must start with "whsec_"/,
    ],
    [
      'a secret not base64',
      JSON.stringify({ label: 'a', secret: 'whsec_!!' }),
      400,
      'validation_failed',
      /base64/,
    ],
    [
      'an unknown field',
      JSON.stringify({ label: 'a', secret: SECRET, x: 1 }),
      400,
      'validation_failed',
      /^x: unknown field/,
    ],
  ])('refuses %s', async (_name, body, status, code, message) => {
    const res = await postSecret(body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code });
    expect(res.body!.error).toMatch(message);
  });

  it('refuses other content types and bodies over the limit', async () => {
    const wrongType = await postSecret(JSON.stringify({ label: 'a', secret: SECRET }), 'text/plain');
    expect(wrongType).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const big = JSON.stringify({ label: 'a'.repeat(CONTROL_BODY_LIMIT_BYTES), secret: SECRET });
    const tooLarge = await postSecret(big);
    expect(tooLarge).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
  });

  it('answers 404 to unknown routes, 405 to other methods, and 403 to a foreign Host', async () => {
    const unknown = await fetch(`${controlUrl}/nothing`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
    const wrong = await fetch(`${controlUrl}/secrets`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(await wrong.json()).toMatchObject({ code: 'method_not_allowed' });
    const foreign = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${controlUrl}/requests`,
        { headers: { host: 'rebound.example:80' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 'forbidden' });
  });

  it('clears the log on DELETE /requests', async () => {
    expect(await sendSigned(url)).toBe(200);
    expect((await list()).length).toBeGreaterThan(0);
    const res = await fetch(`${controlUrl}/requests`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await list()).toEqual([]);
  });

  it('keeps registered secrets in a 0600 file that a restarted inbox reads back', async () => {
    expect(await postSecret(JSON.stringify({ label: 'target-1', secret: SECRET }))).toEqual({
      status: 204,
      body: null,
    });
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretsFile, 'utf8')).toContain(SECRET);

    const restarted = createLocalInbox({ tls: ca.server, secretsFile });
    const again = await restarted.start();
    try {
      expect(await sendSigned(again.url)).toBe(200);
      const [r] = await list(again.controlUrl);
      expect(r!.signature).toMatchObject({ verified: true, matched: 'target-1' });
    } finally {
      await restarted.destroy();
    }
  });
});
