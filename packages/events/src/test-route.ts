// POST /api/v1/targets/:id/test: a sample item sent through the real pipeline, so a customer (or the
// dashboard's "send test event" button) sees a target work end to end: the item is archived, queued,
// delivered by the workers with its attempts logged (webhook, a2a), or left as a message (mailbox).
// It is a demo simulation: marked `test`, and no usage record (interface-spec, "What the service
// does" 7). It is gated exactly as ingestion: billing (402), the target's state (409) and the target's
// ingest window (429), which it counts in, so it is no way around any of them.
import { getIngestTarget, insertItem, type Db } from '@evds/db';
import {
  AppError,
  billingBlocks,
  billingBlocked,
  isEventType,
  MAX_EVENT_TYPE,
  newId,
  notFound,
  windowFull,
} from '@evds/domain';
import { type RouteDef, defineRoute, errorSchema, idParams } from '@evds/http';
import type { Producer } from '@evds/queue';
import { z } from 'zod';
import { targetWindow, type SendGateDeps } from './gates.ts';

export const TEST_EVENT_TYPE = 'evds.test';

const testInput = z.strictObject({
  event_type: z
    .string()
    .refine(isEventType, `must be 1-${MAX_EVENT_TYPE} printable ASCII characters`)
    .optional()
    .describe(
      `default "${TEST_EVENT_TYPE}", or the first of the target's event_types when its filter excludes that`,
    ),
  payload: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('the JSON object sent; default a small sample saying it is a test, with the time it was sent'),
});

export const testSentSchema = z.object({
  id: z
    .string()
    .describe(
      'the event id for webhook and a2a targets (GET /api/v1/events/{id}); the message id for mailboxes ' +
        '(GET /api/v1/mailbox-messages/{message_id})',
    ),
  target_id: z.string(),
  kind: z.enum(['webhook', 'mailbox', 'a2a']),
  status: z.enum(['QUEUED', 'UNREAD']).describe('QUEUED for an event, UNREAD for a mailbox message'),
  event_type: z.string(),
  test: z.literal(true),
});

/** What the receiver gets when the caller names no payload. */
const samplePayload = (eventType: string) => ({
  event_type: eventType,
  test: true,
  message: 'A test event sent from the event delivery service to check this target. It is not billed.',
  sent_at: new Date().toISOString(),
});

/**
 * The type sent. A filter is honoured, never bypassed: a type the caller names must pass it (else 422
 * naming the filter); with none named, `evds.test` when the filter lets it through, else the filter's
 * first type, so the dashboard's button (which sends no body) works on every target.
 */
function chooseType(named: string | undefined, filter: string[]): string {
  if (named === undefined) {
    if (filter.length === 0 || filter.includes(TEST_EVENT_TYPE)) return TEST_EVENT_TYPE;
    // A filter may list a type no item could carry (not a header value): ingestion would refuse it too.
    const first = filter.find(isEventType);
    if (first !== undefined) return first;
    throw new AppError(
      'event_type_filtered',
      `none of this target's event_types (${filter.join(', ')}) can be sent: an event type is 1-${MAX_EVENT_TYPE} printable ASCII characters`,
    );
  }
  if (filter.length > 0 && !filter.includes(named))
    throw new AppError(
      'event_type_filtered',
      `event type "${named}" is not in this target's event_types (${filter.join(', ')}); ` +
        'name one of them, or send no event_type to use the first',
    );
  return named;
}

export function testEventRoutes(
  deps: {
    db: Db;
    producer: Producer;
    /** MAILBOX_RETENTION_SECONDS, as ingestion keeps a message (7 days when not passed). */
    mailboxRetentionSeconds: number;
  } & SendGateDeps,
): RouteDef[] {
  const { db } = deps;
  const admit = targetWindow(deps);
  const retention = deps.mailboxRetentionSeconds;
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/targets/:id/test',
      auth: 'KS',
      tag: 'targets',
      summary:
        'Send a sample event to the target through the real pipeline (archived, queued, delivered by the ' +
        'workers with attempts logged; a message for a mailbox), marked `test` and writing no usage record. ' +
        "Gated as ingestion is: billing, the target's state, its event_types filter, its max_payload_bytes, " +
        'and its ingest window, in which it counts. The body is optional: none or {} sends the sample',
      params: idParams,
      body: testInput,
      responses: {
        202: {
          description: 'the test item, committed (and queued for webhook and a2a)',
          schema: testSentSchema,
        },
        400: {
          description: 'a body that fails the schema (the message names the field), or not JSON',
          schema: errorSchema,
        },
        402: { description: 'billing pending or suspended (as for ingestion)', schema: errorSchema },
        404: { description: 'no such target in this organization', schema: errorSchema },
        409: {
          description: 'the target is disabled (target_disabled, as for ingestion)',
          schema: errorSchema,
        },
        413: {
          description: "the payload is over the target's max_payload_bytes, or the body over the API's limit",
          schema: errorSchema,
        },
        422: {
          description:
            "event_type is not in the target's event_types (event_type_filtered; the message names them)",
          schema: errorSchema,
        },
        429: {
          description:
            "the target's ingest window is full (shared with ingestion); Retry-After says when to try again",
          schema: errorSchema,
        },
      },
      handler: async ({ auth, params, body, req }) => {
        const target = await getIngestTarget(db, auth.orgId, params.id);
        if (!target) throw notFound('target');
        if (billingBlocks(target.billing_status)) throw billingBlocked();
        if (!target.enabled) throw new AppError('target_disabled', 'the target is disabled');
        const eventType = chooseType(body.event_type, target.event_types);
        const payload = Buffer.from(JSON.stringify(body.payload ?? samplePayload(eventType)));
        if (payload.length > target.max_payload_bytes)
          throw new AppError(
            'payload_too_large',
            `payload is larger than this target's max_payload_bytes (${target.max_payload_bytes})`,
          );
        // Asked last, so a refused request takes no place in the window.
        const admitted = await admit(target.id);
        if (!admitted.allowed) throw windowFull(admitted.retryAfterSeconds);
        const id = newId();
        const r = await insertItem(db, {
          id,
          orgId: auth.orgId,
          targetId: target.id,
          kind: target.kind,
          eventType,
          correlationId: null,
          payload,
          requestId: req.id,
          expiresAt: new Date(Date.now() + retention * 1000),
          test: true,
        });
        if (r.outcome !== 'created')
          throw new Error(`a test item without idempotency came back ${r.outcome}`);
        if (target.kind !== 'mailbox')
          await deps.producer.add(target.kind, id, { eventId: id }).catch(() => {
            // Committed already; the sweeper enqueues it.
          });
        const sent: z.infer<typeof testSentSchema> = {
          id,
          target_id: target.id,
          kind: target.kind,
          status: target.kind === 'mailbox' ? 'UNREAD' : 'QUEUED',
          event_type: eventType,
          test: true,
        };
        return { status: 202, body: sent };
      },
    }),
  ];
}
