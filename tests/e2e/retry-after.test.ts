// Proves that a receiver's Retry-After moves the next attempt, end to end: a 429 asking for 2 seconds
// and a 503 giving an HTTP date 3 seconds ahead each delay the next attempt at least that long (the
// schedule here is 100 ms), a Retry-After of an hour is capped at the schedule's longest delay (5 s), and
// the attempt log shows both the header as sent and when the next attempt was due.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startStackWithReceiver, type Receiver, type Stack } from '@evds/testkit';
import { createWebhookTarget, waitForStatus, type EventView } from './helpers.ts';

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  const seen = new Map<string, number>();
  ({ stack, receiver } = await startStackWithReceiver({
    env: { RETRY_DELAYS_MS: '100,100,100,100,5000' },
    behaviour: (req) => {
      const n = (seen.get(req.path) ?? 0) + 1;
      seen.set(req.path, n);
      if (req.path === '/seconds' && n === 1) return { status: 429, headers: { 'retry-after': '2' } };
      if (req.path === '/date' && n === 1)
        return { status: 503, headers: { 'retry-after': new Date(Date.now() + 3000).toUTCString() } };
      if (req.path === '/hour' && n === 1) return { status: 429, headers: { 'retry-after': '3600' } };
      return { status: 200 };
    },
  }));
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

type Attempt = EventView['delivery_attempts'][number] & {
  retry_after: string | null;
  next_attempt_at: string | null;
};

async function deliverVia(path: string): Promise<{ first: Attempt; second: Attempt; arrivals: number[] }> {
  const ws = await seedWorkspace(stack.db);
  const target = await createWebhookTarget(stack, ws, `${receiver.url}${path}`);
  const r = await stack.ingest<{ id: string }>(`/t/${target.id}`, { key: ws.apiKey, body: { path } });
  expect(r.status).toBe(202);
  const event = await waitForStatus(stack, ws, r.body.id, 'DELIVERED', 20_000);
  const [first, second] = event.delivery_attempts as Attempt[];
  if (!first || !second) throw new Error(`expected two attempts, got ${event.delivery_attempts.length}`);
  const arrivals = receiver.received.filter((q) => q.path === path).map((q) => q.at);
  return { first, second, arrivals };
}

const gap = (a: string, b: string) => Date.parse(b) - Date.parse(a);

it('waits as long as a 429 asks in seconds, and logs it', async () => {
  const { first, second, arrivals } = await deliverVia('/seconds');
  expect(first).toMatchObject({ status_code: 429, retry_after: '2' });
  expect(gap(first.attempted_at, first.next_attempt_at ?? '')).toBeGreaterThanOrEqual(2000);
  expect(gap(first.attempted_at, second.attempted_at)).toBeGreaterThanOrEqual(2000);
  expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(1900);
  expect(second).toMatchObject({ status_code: 200, retry_after: null, next_attempt_at: null });
});

it('waits until the HTTP date a 503 gives', async () => {
  const { first, second } = await deliverVia('/date');
  expect(first.status_code).toBe(503);
  expect(first.retry_after).toMatch(/GMT$/);
  // The date has a resolution of one second, so it may fall up to 1 s short of 3 s.
  expect(gap(first.attempted_at, second.attempted_at)).toBeGreaterThanOrEqual(2000);
});

it("caps a longer wait at the schedule's longest delay", async () => {
  const { first, second } = await deliverVia('/hour');
  expect(first.retry_after).toBe('3600');
  const waited = gap(first.attempted_at, first.next_attempt_at ?? '');
  // The wait runs from the answer, so the attempt's own length (longer on a loaded machine) adds to it.
  expect(waited).toBeGreaterThanOrEqual(5000);
  expect(waited).toBeLessThan(6000);
  expect(gap(first.attempted_at, second.attempted_at)).toBeLessThan(15_000);
});
