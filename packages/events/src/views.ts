import type { DeliveryAttempt, EventDetail, EventSummary } from '@evds/db';
import { eventStatuses, iso } from '@evds/domain';
import { rawJson, stringifyWithRaw } from '@evds/http';
import { z } from 'zod';

// Event records and their attempts use ISO 8601 UTC timestamps (decisions.md §2), unlike other records.

export const eventSummarySchema = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  event_type: z.string().nullable(),
  status: z.enum(eventStatuses),
  created_at: z.string().describe('ISO 8601 UTC'),
  test: z
    .boolean()
    .describe('sent by POST /api/v1/targets/{id}/test (no usage record), or a replay of such an event'),
});

export const attemptSchema = z.object({
  id: z.string().describe('da_ + 32 hex'),
  attempt_number: z.number().int(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  attempted_at: z.string().describe('ISO 8601 UTC'),
  response_body: z.string().nullable().describe('first 4 KiB of the answer'),
  error: z.string().nullable().describe('why no answer came: DNS, refused connection, TLS, time-out, policy'),
  a2a_task_id: z.string().nullable(),
  a2a_task_state: z.string().nullable(),
  retry_after: z.string().nullable().describe("the 429 or 503 answer's Retry-After header, as sent"),
  next_attempt_at: z
    .string()
    .nullable()
    .describe(
      'when the next attempt was scheduled (ISO 8601 UTC), for an attempt that left the event RETRYING',
    ),
});

export const eventDetailSchema = eventSummarySchema.extend({
  org_id: z.string(),
  target_id: z.string(),
  kind: z.enum(['webhook', 'a2a']),
  correlation_id: z.string().nullable(),
  source_event_id: z.string().nullable(),
  payload: z
    .unknown()
    .describe('the accepted JSON, byte for byte; null once payload retention has dropped it'),
  payload_size: z.number().int(),
  attempt_count: z.number().int(),
  next_attempt_at: z.string().nullable(),
  final_reason: z.string().nullable().describe('why the event ended FAILED or EXPIRED'),
  updated_at: z.string(),
  delivery_attempts: z.array(attemptSchema),
});

export const summaryView = (e: EventSummary): z.infer<typeof eventSummarySchema> => ({
  id: e.id,
  endpoint_id: e.target_id,
  event_type: e.event_type,
  status: e.status,
  created_at: iso(e.created_at),
  test: e.test,
});

const attemptView = (a: DeliveryAttempt): z.infer<typeof attemptSchema> => ({
  id: a.id,
  attempt_number: a.attempt_number,
  status_code: a.status_code,
  duration_ms: a.duration_ms,
  attempted_at: iso(a.attempted_at),
  response_body: a.response_body,
  error: a.error,
  a2a_task_id: a.a2a_task_id,
  a2a_task_state: a.a2a_task_state,
  retry_after: a.retry_after,
  next_attempt_at: a.next_attempt_at ? iso(a.next_attempt_at) : null,
});

/** The event as JSON text with the archived payload spliced in as stored (never re-serialised). */
export function detailJson(e: EventDetail, attempts: DeliveryAttempt[]): string {
  return stringifyWithRaw({
    ...summaryView(e),
    org_id: e.org_id,
    target_id: e.target_id,
    kind: e.target_kind,
    correlation_id: e.correlation_id,
    source_event_id: e.source_event_id,
    payload: rawJson(e.payload),
    payload_size: e.payload_size,
    attempt_count: e.attempt_count,
    next_attempt_at: e.next_attempt_at ? iso(e.next_attempt_at) : null,
    final_reason: e.final_reason,
    updated_at: iso(e.updated_at),
    delivery_attempts: attempts.map(attemptView),
  });
}
