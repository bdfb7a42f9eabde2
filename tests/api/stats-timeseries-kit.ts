// What the timeseries suites share: a workspace with a target and an event that delivery attempts hang
// on, and attempts written straight to Postgres at chosen times with chosen durations and outcomes.
import { expect } from '@jest/globals';
import { newId } from '@evds/domain';
import { seedWorkspace, type TestApi, type TestWorkspace } from '@evds/testkit';

export interface Bucket {
  start: number;
  succeeded: number;
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}
export interface Series {
  window: string;
  bucket: string;
  bucket_seconds: number;
  since: number;
  buckets: Bucket[];
  /** Set on refusals. */
  error?: string;
  code?: string;
}
export interface WithEvent {
  ws: TestWorkspace;
  target: string;
  event: string;
}

/** A workspace with one webhook target and one event its attempts hang on. */
export async function workspaceWithEvent(api: TestApi): Promise<WithEvent> {
  const ws = await seedWorkspace(api.database.db);
  const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'webhook', name: 'hook', url: 'https://93.184.215.14/hook' },
  });
  expect(r.status).toBe(201);
  const event = newId();
  await api.database.db
    .insertInto('events')
    .values({
      id: event,
      org_id: ws.orgId,
      target_id: r.body.target.id,
      target_kind: 'webhook',
      event_type: null,
      correlation_id: null,
      status: 'DELIVERED',
      source_event_id: null,
      payload: Buffer.from('{}'),
      payload_size: 2,
      next_attempt_at: null,
      last_attempt_at: null,
      delivered_at: null,
      final_reason: null,
      request_id: null,
      recovery_id: null,
    })
    .execute();
  return { ws, target: r.body.target.id, event };
}

export interface Attempt {
  atMs: number;
  durationMs: number;
  statusCode: number | null;
  error?: string;
}

export async function addAttempts(api: TestApi, w: WithEvent, attempts: Attempt[]): Promise<void> {
  await api.database.db
    .insertInto('delivery_attempts')
    .values(
      attempts.map((a, i) => ({
        id: `da_${newId()}`,
        event_id: w.event,
        org_id: w.ws.orgId,
        target_id: w.target,
        attempt_number: i + 1,
        status_code: a.statusCode,
        duration_ms: a.durationMs,
        attempted_at: new Date(a.atMs),
        response_body: null,
        error: a.error ?? null,
        a2a_task_id: null,
        a2a_task_state: null,
      })),
    )
    .execute();
}
