// Proves payload retention end to end on a stack whose retention is one second and whose maintenance
// job runs every half second (config PAYLOAD_RETENTION_SECONDS, MAINTENANCE_INTERVAL_MS): once the
// job drops an archived payload, GET /api/v1/events/:id shows `payload: null` while the rest of the
// record and its attempts stay readable, a replay answers 410 `{error, code: 'gone'}` and writes
// nothing, and an event still waiting for a retry when its payload goes ends FAILED, not delivered.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  seedWorkspace,
  type Receiver,
  type Stack,
  type TestWorkspace,
  startStackWithReceiver,
} from '@evds/testkit';
import { createWebhookTarget, eventCount, pollUntil, waitForStatus, type EventView } from './helpers.ts';

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    behaviour: (req) => (req.path.startsWith('/fail') ? { status: 503 } : { status: 200 }),
    // A long retry delay keeps a failing event waiting past the retention of its payload.
    env: { PAYLOAD_RETENTION_SECONDS: '1', MAINTENANCE_INTERVAL_MS: '500', RETRY_DELAYS_MS: '4000' },
  }));
  ws = await seedWorkspace(stack.db);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const getEvent = (id: string) => stack.api<EventView>(`/api/v1/events/${id}`, { key: ws.apiKey });

async function send(targetId: string, body: string): Promise<string> {
  const r = await stack.ingest<{ id: string }>(`/t/${targetId}`, { key: ws.apiKey, body });
  if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${r.text}`);
  return r.body.id;
}

const payloadDropped = (id: string) =>
  pollUntil(`the payload of ${id} to be dropped`, async () => {
    const r = await getEvent(id);
    return r.status === 200 && r.body.payload === null ? r : undefined;
  });

it('after the maintenance job drops the payload, GET shows payload null and replay answers 410 gone', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok`);
  const body = '{"keep": "me",  "n":1.50}';
  const id = await send(target.id, body);
  // Stored at first (well within the one-second retention): the null later is the job's doing.
  const fresh = await getEvent(id);
  expect(fresh.text).toContain(`"payload":${body}`);
  const delivered = await waitForStatus(stack, ws, id, 'DELIVERED');

  const dropped = await payloadDropped(id);
  expect(dropped.text).toContain('"payload":null');
  expect(dropped.body).toMatchObject({ id, status: 'DELIVERED', source_event_id: null });
  expect(dropped.body.delivery_attempts).toEqual(delivered.delivery_attempts);

  const events = await eventCount(stack, ws.orgId);
  const r = await stack.api(`/api/v1/events/${id}/replay`, { method: 'POST', key: ws.apiKey });
  expect(r.status).toBe(410);
  expect(r.body).toEqual({ error: expect.any(String), code: 'gone' });
  expect(await eventCount(stack, ws.orgId)).toBe(events);
  expect((await getEvent(id)).body.status).toBe('DELIVERED');
}, 20_000);

it('an event waiting for its retry when the payload goes ends FAILED without another delivery', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/fail`);
  const id = await send(target.id, '{"retry":"me"}');
  await waitForStatus(stack, ws, id, 'RETRYING');
  await payloadDropped(id);
  const failed = await waitForStatus(stack, ws, id, 'FAILED', 15_000);
  expect(failed.final_reason).toBe('payload no longer stored');
  expect(failed.delivery_attempts).toHaveLength(1);
  expect(receiver.received.filter((x) => x.headers['webhook-id'] === id)).toHaveLength(1);
}, 20_000);
