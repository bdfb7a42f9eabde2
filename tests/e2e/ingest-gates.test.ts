// Proves that ingest refuses before it reads: against the ingest service as its own process, over a
// raw keep-alive socket, a body announced over the target's max_payload_bytes (200,000 bytes for a
// limit of 1,000) and a request over the target's rate limit (with 200,000 bytes announced) are both
// answered while not one byte of their bodies has been sent, and the connection is closed rather than
// drained; a rate-limited request with a small body is refused without being parsed (malformed JSON
// answers 429, not 400) and its connection stays usable. On a target that requires inbound signatures,
// 25 requests with a wrong signature (limit 20) spend none of the target's quota: the next correctly
// signed one is accepted, and the limit still holds for signed requests.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { signInbound } from '@evds/ingest-core';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { openConnection, type Connection } from './socket-exchange.ts';

const LIMIT = 20;
let stack: Stack;
let ws: TestWorkspace;
let port: number;
const open: Connection[] = [];

beforeAll(async () => {
  stack = await startStack({ services: ['api', 'ingest'], env: { INGEST_RATE_LIMIT: String(LIMIT) } });
  ws = await seedWorkspace(stack.db);
  port = stack.processes.get('ingest')?.port ?? 0;
});
afterAll(async () => {
  for (const c of open) c.destroy();
  await stack.stop();
});

async function connection(): Promise<Connection> {
  const c = await openConnection(port);
  open.push(c);
  return c;
}

async function mailbox(): Promise<string> {
  const r = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'm' },
  });
  return r.body.target.id;
}

/** A POST head announcing `length` bytes of JSON (none of which is sent by `send` without a body). */
const head = (path: string, length: number, extra: [string, string][] = []) => ({
  method: 'POST',
  path,
  headers: [
    ['Authorization', `Bearer ${ws.apiKey}`],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(length)],
    ...extra,
  ] as [string, string][],
});

/** Spends the target's whole window with accepted items. */
async function exhaust(target: string): Promise<void> {
  for (let i = 0; i < LIMIT; i++)
    expect((await stack.ingest(`/t/${target}`, { key: ws.apiKey, body: { i } })).status).toBe(202);
}

it("answers 413 to a body announced over the target's max_payload_bytes before a byte of it is sent", async () => {
  const target = await mailbox();
  await stack.db.updateTable('targets').set({ max_payload_bytes: 1000 }).where('id', '=', target).execute();
  const c = await connection();
  const answer = await c.send(head(`/t/${target}`, 200_000));
  expect(answer).toMatchObject({
    status: 413,
    body: {
      code: 'payload_too_large',
      error: "payload is larger than this target's max_payload_bytes (1000)",
    },
  });
  expect(answer.headers.connection).toBe('close');
  expect(await c.closedWithin(2_000)).toBe(true);
});

it('answers 429 to a request over the rate limit before a byte of its body is sent', async () => {
  const target = await mailbox();
  await exhaust(target);
  const c = await connection();
  const answer = await c.send(head(`/t/${target}`, 200_000));
  expect(answer).toMatchObject({
    status: 429,
    body: { code: 'rate_limited', error: 'rate limit exceeded for this endpoint' },
  });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  expect(answer.headers.connection).toBe('close');
  expect(await c.closedWithin(2_000)).toBe(true);
});

it('refuses a rate-limited request without parsing its body, and keeps a connection with a small body', async () => {
  const target = await mailbox();
  await exhaust(target);
  const c = await connection();
  const malformed = Buffer.from('{"not json');
  for (let i = 0; i < 2; i++) {
    const answer = await c.send(head(`/t/${target}`, malformed.length), malformed);
    expect([answer.status, answer.body.code]).toEqual([429, 'rate_limited']);
    expect(answer.headers.connection).not.toBe('close');
  }
  expect(await c.closedWithin(200)).toBe(false);
  // Under the limit the same body is read and refused as malformed JSON.
  const fresh = await mailbox();
  const answer = await c.send(head(`/t/${fresh}`, malformed.length), malformed);
  expect([answer.status, answer.body.code]).toEqual([400, 'invalid_json']);
});

it("wrong inbound signatures spend none of the target's quota; signed requests are still limited", async () => {
  const created = await stack.api<{ id: string }>('/api/v1/endpoints', {
    key: ws.apiKey,
    body: { name: 'signed', url: 'https://127.0.0.1:9/s' },
  });
  const endpoint = created.body.id;
  const on = await stack.api<{ endpoint: { inbound_secret: string } }>(`/api/v1/endpoints/${endpoint}`, {
    method: 'PATCH',
    key: ws.apiKey,
    body: { verify_inbound_signatures: true },
  });
  const secret = on.body.endpoint.inbound_secret;
  const body = '{"signed":true}';
  const send = (signature: string) => {
    const ts = Math.floor(Date.now() / 1000);
    return stack.ingest(`/e/${endpoint}`, {
      key: ws.apiKey,
      body,
      headers: {
        'x-service-timestamp': String(ts),
        'x-service-signature': signature === 'right' ? signInbound(secret, Buffer.from(body), ts) : signature,
      },
    });
  };

  const wrong: number[] = [];
  for (let i = 0; i < LIMIT + 5; i++) wrong.push((await send(`v1=${'0'.repeat(64)}`)).status);
  expect(wrong).toEqual(Array(LIMIT + 5).fill(403));

  const signed: number[] = [];
  for (let i = 0; i < LIMIT + 1; i++) signed.push((await send('right')).status);
  expect(signed).toEqual([...Array<number>(LIMIT).fill(202), 429]);
});
