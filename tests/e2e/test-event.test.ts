// Proves POST /api/v1/targets/:id/test end to end, every service a process of its own: with no body (as
// the dashboard sends it) a webhook target receives the sample event over HTTPS, signed so that the
// official `standardwebhooks` package verifies it, and the event ends DELIVERED with its attempt logged,
// shown `test: true` in the event list and detail (an ingested event shows false); a named event type and
// payload (with a session) arrive byte for byte, and `{}` sends the sample; an event_types filter is
// honoured (its first type is the default, a named type outside it is 422 naming it); a mailbox gets a
// message marked test, listed with a session; an a2a target's item goes through the a2a worker (its
// attempt logged). None writes a usage record: the ledger in Postgres and GET /api/v1/usage are
// unchanged, while an ingested item moves both. The gates and bad input: test-event-gates.test.ts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createA2aTarget } from '@evds/db';
import { newId } from '@evds/domain';
import {
  seedWorkspace,
  startStackWithReceiver,
  type Receiver,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import { Webhook } from 'standardwebhooks';
import { createWebhookTarget, pollUntil, usageCount, waitForStatus } from './helpers.ts';
import {
  itemRows,
  mailboxTarget as newMailbox,
  sendTest as send,
  shownUsage,
  type Sent,
} from './test-event-kit.ts';

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    env: { RETRY_DELAYS_MS: '50' },
    services: ['api', 'ingest', 'delivery-worker', 'a2a-worker'],
  }));
  ws = await seedWorkspace(stack.db, { billingStatus: 'active' });
}, 60_000);
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const sendTest = (target: string, opts: Parameters<typeof send>[3] = {}, w = ws) =>
  send(stack, w, target, opts);
const usage = (w: TestWorkspace = ws) => shownUsage(stack, w);
const rows = (w: TestWorkspace = ws) => itemRows(stack, w);
const mailboxTarget = (w: TestWorkspace = ws) => newMailbox(stack, w);

describe('a test event', () => {
  it('reaches a webhook receiver signed, is DELIVERED, shows test: true, and writes no usage', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/test`);
    const usageBefore = await usage();
    const ledgerBefore = await usageCount(stack, ws.orgId);
    const before = receiver.received.length;

    const r = await sendTest(target.id);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      target_id: target.id,
      kind: 'webhook',
      status: 'QUEUED',
      event_type: 'evds.test',
      test: true,
    });

    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got?.path).toBe('/hooks/test');
    expect(got?.headers['webhook-id']).toBe(r.body.id);
    expect(got?.headers['x-event-type']).toBe('evds.test');
    const verified = new Webhook(target.secret).verify(got?.body.toString() ?? '', got?.headers ?? {});
    expect(verified).toEqual({
      event_type: 'evds.test',
      test: true,
      message: expect.stringContaining('test event'),
      sent_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const event = await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
    expect(event).toMatchObject({ test: true, event_type: 'evds.test', endpoint_id: target.id });
    expect(event.delivery_attempts).toHaveLength(1);
    expect(event.delivery_attempts[0]).toMatchObject({ status_code: 200, error: null });
    expect(await usageCount(stack, ws.orgId)).toBe(ledgerBefore);
    expect(await usage()).toBe(usageBefore);

    // An ingested item, for contrast: it is not a test, and it is counted.
    const ingested = await stack.ingest<{ id: string }>(`/t/${target.id}`, {
      key: ws.apiKey,
      body: { n: 1 },
    });
    expect(ingested.status).toBe(202);
    expect(await usageCount(stack, ws.orgId)).toBe(ledgerBefore + 1);
    expect(await usage()).toBe(usageBefore + 1);
    const list = await stack.api<{ events: { id: string; test: boolean }[] }>(
      `/api/v1/events?endpoint_id=${target.id}`,
      { key: ws.apiKey },
    );
    expect(list.body.events.map((e) => [e.id, e.test])).toEqual([
      [ingested.body.id, false],
      [r.body.id, true],
    ]);
    const detail = await stack.api<{ test: boolean }>(`/api/v1/events/${ingested.body.id}`, {
      key: ws.apiKey,
    });
    expect(detail.body.test).toBe(false);
  });

  it('sends a named event type and payload byte for byte, with a session or an empty body alike', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/named`);
    const login = await stack.api<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: ws.email, password: ws.password },
    });
    const payload = { order: { id: 'o-1', total: 12.5 }, note: 'ünïcödé ✓' };
    const before = receiver.received.length;
    const r = await stack.api<Sent>(`/api/v1/targets/${target.id}/test`, {
      session: login.body.session_token,
      body: { event_type: 'order.created', payload },
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ event_type: 'order.created', test: true });
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got?.headers['x-event-type']).toBe('order.created');
    expect(got?.body.equals(Buffer.from(JSON.stringify(payload)))).toBe(true);

    const empty = await sendTest(target.id, { body: {} });
    expect([empty.status, empty.body.event_type]).toEqual([202, 'evds.test']);
    await waitForStatus(stack, ws, empty.body.id, 'DELIVERED');
  });

  it("honours the target's event_types: the first is the default, a type outside it is 422", async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/filtered`);
    const patched = await stack.api(`/api/v1/endpoints/${target.id}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { event_types: ['order.created', 'order.paid'] },
    });
    expect(patched.status).toBe(200);
    const before = receiver.received.length;
    const r = await sendTest(target.id);
    expect([r.status, r.body.event_type]).toEqual([202, 'order.created']);
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got?.headers['x-event-type']).toBe('order.created');

    const counts = await rows();
    const refused = await sendTest(target.id, { body: { event_type: 'evds.test' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      error:
        'event type "evds.test" is not in this target\'s event_types (order.created, order.paid); ' +
        'name one of them, or send no event_type to use the first',
      code: 'event_type_filtered',
    });
    expect(await rows()).toEqual(counts);
  });

  it('leaves a message marked test in a mailbox, readable with a session, and writes no usage', async () => {
    const mailbox = await mailboxTarget();
    const usageBefore = await usage();
    const counts = await rows();
    const r = await sendTest(mailbox);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ target_id: mailbox, kind: 'mailbox', status: 'UNREAD', test: true });
    const login = await stack.api<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: ws.email, password: ws.password },
    });
    const list = await stack.api<{
      messages: { id: string; test: boolean; state: string; payload: unknown }[];
    }>(`/api/v1/mailboxes/${mailbox}/messages`, { session: login.body.session_token });
    expect(list.status).toBe(200);
    expect(list.body.messages).toEqual([
      expect.objectContaining({
        id: r.body.id,
        test: true,
        state: 'UNREAD',
        payload: expect.objectContaining({ test: true }),
      }),
    ]);
    expect(await rows()).toEqual({ ...counts, messages: counts.messages + 1 });
    expect(await usage()).toBe(usageBefore);
  });

  it('goes through the a2a worker for an a2a target, its attempt logged, and writes no usage', async () => {
    const a2a = await createA2aTarget(stack.db, {
      id: newId(),
      org_id: ws.orgId,
      name: 'agent',
      agent_card_url: 'https://127.0.0.1:1/.well-known/agent-card.json',
      card: {
        iface: { url: 'https://127.0.0.1:1/a2a', binding: 'HTTP+JSON', version: '1.0' },
        card: null,
        etag: null,
        fetchedAt: new Date(),
      },
      auth_type: 'none',
      auth_token: null,
    });
    const counts = await rows();
    const r = await sendTest(a2a.id);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ kind: 'a2a', status: 'QUEUED', test: true });
    // Nothing listens there: the worker's attempt fails, and is logged on the test event.
    const event = await pollUntil('an a2a attempt', async () => {
      const e = await stack.api<{ test: boolean; delivery_attempts: { error: string | null }[] }>(
        `/api/v1/events/${r.body.id}`,
        { key: ws.apiKey },
      );
      return e.body.delivery_attempts.length > 0 ? e.body : undefined;
    });
    expect(event.test).toBe(true);
    expect(event.delivery_attempts[0]?.error).toEqual(expect.any(String));
    expect(await rows()).toEqual({ ...counts, events: counts.events + 1 });
  });
});
