// Proves webhook delivery end to end with every service as its own process: an item accepted by
// ingest reaches a real HTTPS receiver (test CA) on 127.0.0.1 byte for byte, signed so that the
// official `standardwebhooks` package verifies it (with both secrets while rotating), and the event
// ends DELIVERED with its attempt logged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  seedWorkspace,
  type Receiver,
  type Stack,
  type TestWorkspace,
  startStackWithReceiver,
} from '@evds/testkit';
import { Webhook } from 'standardwebhooks';
import { createWebhookTarget, waitForStatus } from './helpers.ts';

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({}));
  ws = await seedWorkspace(stack.db);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

describe('a delivered event', () => {
  it('arrives byte for byte and verifies with the official package', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/a`);
    const body =
      '{"zeta":1,  "alpha":"ünïcödé ✓","big":12345678901234567890123,"n":1.50,"nested":{"b":[1,2],"a":null}}';
    const before = receiver.received.length;
    const r = await stack.ingest<{ id: string; status: string; kind: string; target_id: string }>(
      `/t/${target.id}`,
      {
        key: ws.apiKey,
        body,
        headers: { 'x-event-type': 'order.created', 'x-correlation-id': 'corr-1' },
      },
    );
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      target_id: target.id,
      kind: 'webhook',
      status: 'QUEUED',
    });

    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got?.path).toBe('/hooks/a');
    expect(got?.body.equals(Buffer.from(body))).toBe(true);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['webhook-id']).toBe(r.body.id);
    expect(got?.headers['x-event-type']).toBe('order.created');
    expect(got?.headers['x-correlation-id']).toBe('corr-1');
    const verified = new Webhook(target.secret).verify(got?.body.toString() ?? '', got?.headers ?? {});
    expect(verified).toEqual(JSON.parse(body));

    const event = await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
    expect(event.delivery_attempts).toHaveLength(1);
    expect(event.delivery_attempts[0]).toMatchObject({ status_code: 200, attempt_number: 1, error: null });
    expect(event.delivery_attempts[0]?.id).toMatch(/^da_[0-9a-f]{32}$/);
    expect(event.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('the legacy /e/ route delivers the same way and answers {id, status}', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/e`);
    const before = receiver.received.length;
    const r = await stack.ingest(`/e/${target.id}`, {
      key: ws.apiKey,
      body: { event_type: 'user.created', id: 7 },
    });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ id: expect.any(String), status: 'QUEUED' });
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got?.headers['x-event-type']).toBe('user.created');
    expect(() =>
      new Webhook(target.secret).verify(got?.body.toString() ?? '', got?.headers ?? {}),
    ).not.toThrow();
  });

  it('signs with both secrets while rotating, and with the new one alone after the drop', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks/rot`);
    const rotated = await stack.api<{ secret: string }>(
      `/api/v1/targets/${target.id}/signing-secret/rotate`,
      { method: 'POST', key: ws.apiKey },
    );
    expect(rotated.status).toBe(200);
    const before = receiver.received.length;
    await stack.ingest(`/t/${target.id}`, { key: ws.apiKey, body: { n: 1 } });
    const [during] = (await receiver.waitFor(before + 1)).slice(before);
    const signatures = during?.headers['webhook-signature']?.split(' ') ?? [];
    expect(signatures).toHaveLength(2);
    for (const secret of [target.secret, rotated.body.secret])
      expect(() =>
        new Webhook(secret).verify(during?.body.toString() ?? '', during?.headers ?? {}),
      ).not.toThrow();

    await stack.api(`/api/v1/targets/${target.id}/signing-secret/previous`, {
      method: 'DELETE',
      key: ws.apiKey,
    });
    await stack.ingest(`/t/${target.id}`, { key: ws.apiKey, body: { n: 2 } });
    const [after] = (await receiver.waitFor(before + 2)).slice(before + 1);
    expect(after?.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() =>
      new Webhook(rotated.body.secret).verify(after?.body.toString() ?? '', after?.headers ?? {}),
    ).not.toThrow();
    expect(() =>
      new Webhook(target.secret).verify(after?.body.toString() ?? '', after?.headers ?? {}),
    ).toThrow();
  });
});
