import { expect } from '@jest/globals';
import type { Stack, TestWorkspace } from '@evds/testkit';

export interface EventView {
  id: string;
  status: string;
  final_reason: string | null;
  created_at: string;
  payload: unknown;
  source_event_id: string | null;
  delivery_attempts: {
    id: string;
    attempt_number: number;
    status_code: number | null;
    error: string | null;
    response_body: string | null;
    duration_ms: number;
    attempted_at: string;
  }[];
}

export async function createWebhookTarget(
  stack: Stack,
  ws: TestWorkspace,
  url: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; secret: string }> {
  const r = await stack.api<{ target: { id: string; secret: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'webhook', name: 'receiver', url, ...extra },
  });
  if (r.status !== 201) throw new Error(`target creation answered ${r.status}: ${r.text}`);
  return r.body.target;
}

/** Polls the events API until the event reaches `status` (or fails after timeoutMs). */
export async function waitForStatus(
  stack: Stack,
  ws: TestWorkspace,
  id: string,
  status: string,
  timeoutMs = 20_000,
): Promise<EventView> {
  const deadline = Date.now() + timeoutMs;
  let last: EventView | undefined;
  while (Date.now() < deadline) {
    const r = await stack.api<EventView>(`/api/v1/events/${id}`, { key: ws.apiKey });
    last = r.body;
    if (r.status === 200 && last.status === status) return last;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`event ${id} did not reach ${status}; last seen ${JSON.stringify(last)}`);
}

/** Polls `probe` until it returns a value other than undefined (or fails after timeoutMs). */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Usage records of one organization, read straight from Postgres. */
export async function usageCount(stack: Stack, orgId: string): Promise<number> {
  const rows = await stack.db.selectFrom('usage_records').select('id').where('org_id', '=', orgId).execute();
  return rows.length;
}

/** Event rows of one organization, read straight from Postgres. */
export async function eventCount(stack: Stack, orgId: string): Promise<number> {
  const rows = await stack.db.selectFrom('events').select('id').where('org_id', '=', orgId).execute();
  return rows.length;
}

/** Sends `count` items to a target, `concurrency` at a time; returns each accepted id with when its 202 arrived. */
export async function sendMany(
  stack: Stack,
  ws: TestWorkspace,
  target: string,
  count: number,
  concurrency: number,
): Promise<Map<string, number>> {
  const accepted = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const seq = next++;
        const r = await stack.ingest<{ id: string }>(`/t/${target}`, { key: ws.apiKey, body: { seq } });
        expect(r.status).toBe(202);
        accepted.set(r.body.id, Date.now());
      }
    }),
  );
  return accepted;
}
