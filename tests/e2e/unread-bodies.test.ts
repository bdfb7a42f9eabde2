// Proves that a refusal never reads the rest of a body: against ingest and the API as their own
// processes, over a raw socket, a chunked body that keeps coming past the limit (the target's
// max_payload_bytes on ingest, BODY_LIMIT_BYTES on the API) is answered 413 while the sender is still
// sending, and the connection is closed; an unauthenticated request announcing a megabyte is answered
// 401 before any of it is sent, with the connection closed rather than left to drain the megabyte.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { openConnection, type Connection } from './socket-exchange.ts';

let stack: Stack;
let ws: TestWorkspace;
const open: Connection[] = [];

beforeAll(async () => {
  stack = await startStack({ services: ['api', 'ingest'], env: { BODY_LIMIT_BYTES: '100000' } });
  ws = await seedWorkspace(stack.db);
});
afterAll(async () => {
  for (const c of open) c.destroy();
  await stack.stop();
});

async function connection(service: 'api' | 'ingest'): Promise<Connection> {
  const c = await openConnection(stack.processes.get(service)?.port ?? 0);
  open.push(c);
  return c;
}

const chunkedHead = (path: string) => ({
  method: 'POST',
  path,
  headers: [
    ['Authorization', `Bearer ${ws.apiKey}`],
    ['Content-Type', 'application/json'],
    ['Transfer-Encoding', 'chunked'],
  ] as [string, string][],
});

/**
 * Sends the head, then 16 KiB chunks every 10 ms for up to 5 s, until the answer comes. Resolves with
 * the answer and how many body bytes had been sent when it came.
 */
async function streamUntilAnswered(c: Connection, path: string) {
  const chunk = Buffer.concat([Buffer.from('4000\r\n'), Buffer.alloc(0x4000, 0x20), Buffer.from('\r\n')]);
  let sent = 0;
  let answered = false;
  const answer = c.send(chunkedHead(path)).finally(() => (answered = true));
  const started = Date.now();
  while (!answered && Date.now() - started < 5_000) {
    if (!c.write(chunk)) break;
    sent += 0x4000;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { answer: await answer, sent };
}

it("answers 413 to an endless chunked body past the target's max_payload_bytes while it is still coming", async () => {
  const made = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'm' },
  });
  const target = made.body.target.id;
  await stack.db.updateTable('targets').set({ max_payload_bytes: 1000 }).where('id', '=', target).execute();
  const c = await connection('ingest');
  const { answer, sent } = await streamUntilAnswered(c, `/t/${target}`);
  console.log(`ingest: 413 after ${sent} body bytes sent (limit 1,000)`);
  expect(answer.status).toBe(413);
  expect(answer.body.code).toBe('payload_too_large');
  expect(sent).toBeLessThan(1_000_000);
  expect(await c.closedWithin(2_000)).toBe(true);
});

it('answers 413 to an endless chunked body past BODY_LIMIT_BYTES on the API while it is still coming', async () => {
  const c = await connection('api');
  const { answer, sent } = await streamUntilAnswered(c, '/api/v1/targets');
  console.log(`api: 413 after ${sent} body bytes sent (limit 100,000)`);
  expect(answer.status).toBe(413);
  expect(sent).toBeLessThan(1_000_000);
  expect(await c.closedWithin(2_000)).toBe(true);
});

it('answers 401 before an announced megabyte is sent, and closes instead of draining it', async () => {
  const c = await connection('api');
  const answer = await c.send({
    method: 'POST',
    path: '/api/v1/targets',
    headers: [
      ['Authorization', `Bearer evds_sk_${'0'.repeat(64)}`],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(1_000_000)],
    ],
  });
  expect(answer.status).toBe(401);
  expect(answer.headers.connection).toBe('close');
  expect(await c.closedWithin(2_000)).toBe(true);
});
