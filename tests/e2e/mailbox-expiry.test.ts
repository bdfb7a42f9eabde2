// Proves mailbox time limits with real clocks, on a stack of api, ingest and the delivery worker (which
// runs the maintenance schedulers) whose lease is one second (MAILBOX_LEASE_SECONDS), retention six
// seconds (MAILBOX_RETENTION_SECONDS) and maintenance interval half a second: a passed lease shows the
// message UNREAD and lets another key claim it, after which the old holder's ack is 409; the holder
// claiming again within its lease extends it (lease_expires_at moves forward, claimed_at stays) so that
// another key is still refused after the first lease would have ended; and once retention passes the
// 'mailbox-retention' job stores the message EXPIRED without its payload, which the API shows, lists
// under status=EXPIRED, refuses to claim (409), and counts in /api/v1/stats.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { pollUntil } from './helpers.ts';

const LEASE_MS = 1000;
const RETENTION_SECONDS = 6;

let stack: Stack;
let ws: TestWorkspace;
let mailbox: string;
let second: { id: string; key: string };

beforeAll(async () => {
  stack = await startStack({
    services: ['api', 'ingest', 'delivery-worker'],
    env: {
      MAILBOX_LEASE_SECONDS: String(LEASE_MS / 1000),
      MAILBOX_RETENTION_SECONDS: String(RETENTION_SECONDS),
      MAINTENANCE_INTERVAL_MS: '500',
    },
  });
  ws = await seedWorkspace(stack.db);
  const t = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'timed' },
  });
  mailbox = t.body.target.id;
  const k = await stack.api<{ id: string; key: string }>('/api/v1/keys', {
    key: ws.apiKey,
    body: { name: 'second consumer' },
  });
  second = k.body;
}, 60_000);
afterAll(() => stack.stop());

interface Message {
  id: string;
  state: string;
  payload: unknown;
  claimed_at: number | null;
  claimed_by_key_id: string | null;
  lease_expires_at: number | null;
}
type One = { message: Message; code?: string };

async function send(body = '{"timed": true}'): Promise<string> {
  const r = await stack.ingest<{ id: string }>(`/t/${mailbox}`, { key: ws.apiKey, body });
  if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${r.text}`);
  return r.body.id;
}
const get = (id: string) => stack.api<One>(`/api/v1/mailbox-messages/${id}`, { key: ws.apiKey });
const claim = (id: string, key = ws.apiKey) =>
  stack.api<One>(`/api/v1/mailbox-messages/${id}/claim`, { method: 'POST', key });
const ack = (id: string, key = ws.apiKey) =>
  stack.api<One>(`/api/v1/mailbox-messages/${id}/ack`, { method: 'POST', key });
const row = (id: string) =>
  stack.db.selectFrom('mailbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sleepUntil = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms - Date.now())));

it("a passed lease shows UNREAD, another key may claim it, and the old holder's ack is 409", async () => {
  const id = await send();
  expect((await claim(id)).status).toBe(200);
  const held = await claim(id, second.key);
  expect([held.status, held.body.code]).toEqual([409, 'lease_held']);

  const lapsed = await pollUntil('the lease to pass', async () => {
    const r = await get(id);
    return r.body.message.state === 'UNREAD' ? r.body.message : undefined;
  });
  expect(lapsed).toMatchObject({ claimed_at: null, claimed_by_key_id: null, lease_expires_at: null });
  // Nothing was written when the lease passed: the stored row still says CLAIMED.
  expect(await row(id)).toMatchObject({ state: 'CLAIMED', claimed_by_key_id: ws.keyId });

  const taken = await claim(id, second.key);
  expect(taken.status).toBe(200);
  expect(taken.body.message).toMatchObject({ state: 'CLAIMED', claimed_by_key_id: second.id });
  const late = await ack(id);
  expect([late.status, late.body.code]).toEqual([409, 'lease_held']);
  const done = await ack(id, second.key);
  expect([done.status, done.body.message.state]).toEqual([200, 'ACKNOWLEDGED']);
});

it('the holder claiming again extends its lease: another key is still refused after the first lease ends', async () => {
  const id = await send();
  const first = await claim(id);
  expect(first.status).toBe(200);
  const firstLease = (await row(id)).lease_expires_at!.getTime();

  await sleepUntil(firstLease - LEASE_MS / 2);
  const again = await claim(id);
  expect(again.status).toBe(200);
  const extended = await row(id);
  expect(extended.lease_expires_at!.getTime()).toBeGreaterThanOrEqual(firstLease + LEASE_MS / 2 - 100);
  expect(again.body.message.lease_expires_at).toBeGreaterThanOrEqual(first.body.message.lease_expires_at!);
  expect(again.body.message.claimed_at).toBe(first.body.message.claimed_at);

  // Past the first lease, within the extended one.
  await sleepUntil(firstLease + 100);
  const refused = await claim(id, second.key);
  expect([refused.status, refused.body.code]).toEqual([409, 'lease_held']);
  expect((await ack(id)).status).toBe(200);
});

it('past retention the job stores the message EXPIRED and drops its payload; claims are 409', async () => {
  const id = await send('{"short": "lived"}');
  expect((await claim(id)).status).toBe(200);
  const before = await row(id);
  expect(before.payload?.toString()).toBe('{"short": "lived"}');
  expect((before.expires_at.getTime() - before.created_at.getTime()) / 1000).toBeCloseTo(
    RETENTION_SECONDS,
    0,
  );

  const expired = await pollUntil(
    'the maintenance job to expire the message',
    async () => {
      const r = await row(id);
      return r.state === 'EXPIRED' ? r : undefined;
    },
    (RETENTION_SECONDS + 10) * 1000,
  );
  expect(expired.payload).toBeNull();
  expect(expired.expires_at.getTime()).toBeLessThanOrEqual(Date.now());

  const shown = await get(id);
  expect(shown.status).toBe(200);
  expect(shown.text).toContain('"payload":null');
  expect(shown.body.message).toMatchObject({ id, state: 'EXPIRED', lease_expires_at: null });
  const listed = await stack.api<{ messages: Message[] }>(
    `/api/v1/mailboxes/${mailbox}/messages?status=EXPIRED`,
    { key: ws.apiKey },
  );
  expect(listed.body.messages.map((m) => m.id)).toContain(id);
  for (const key of [ws.apiKey, second.key]) {
    const r = await claim(id, key);
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
  }
  expect((await ack(id)).status).toBe(409);
  const stats = await stack.api<{ mailboxes: Record<string, number> }>('/api/v1/stats', { key: ws.apiKey });
  expect(stats.body.mailboxes.EXPIRED).toBeGreaterThanOrEqual(1);
}, 30_000);

it('an idempotent repeat answers the state the message shows now (a lapsed claim is UNREAD)', async () => {
  const first = await stack.ingest<{ id: string; status: string }>(`/t/${mailbox}`, {
    key: ws.apiKey,
    body: { repeat: true },
    headers: { 'idempotency-key': 'lapsed-claim' },
  });
  expect((await claim(first.body.id)).status).toBe(200);
  const during = await stack.ingest<{ status: string }>(`/t/${mailbox}`, {
    key: ws.apiKey,
    body: { repeat: true },
    headers: { 'idempotency-key': 'lapsed-claim' },
  });
  expect(during.body.status).toBe('CLAIMED');
  await new Promise((r) => setTimeout(r, LEASE_MS + 200));
  const after = await stack.ingest<{ id: string; status: string }>(`/t/${mailbox}`, {
    key: ws.apiKey,
    body: { repeat: true },
    headers: { 'idempotency-key': 'lapsed-claim' },
  });
  expect(after.body).toMatchObject({ id: first.body.id, status: 'UNREAD' });
});
