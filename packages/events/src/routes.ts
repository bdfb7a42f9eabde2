import { getEvent, listAttempts, listEvents, replayEvent } from '@evds/db';
import { AppError, billingBlocked, eventStatuses, newId, notFound, windowFull } from '@evds/domain';
import { type RouteDef, defineRoute, errorSchema, idParams, queryInt } from '@evds/http';
import type { Producer } from '@evds/queue';
import { z } from 'zod';
import { eventDetailSchema, eventSummarySchema, summaryView, detailJson } from './views.ts';
import { targetWindow, type SendGateDeps } from './gates.ts';
import { testEventRoutes } from './test-route.ts';
import { timeseriesRoutes } from './timeseries-route.ts';
import { statsRoutes } from './stats-route.ts';
import { visibleFrom, type EventReadDeps } from './visibility.ts';

const listQuery = z.strictObject({
  limit: queryInt(50, 1, 100).describe('default 50, max 100'),
  offset: queryInt(0, 0, 1_000_000_000),
  endpoint_id: z.string().max(64).optional(),
  status: z.enum(eventStatuses).optional(),
  event_type: z.string().max(200).optional(),
  correlation_id: z.string().max(128).optional(),
  after: z
    .string()
    .max(64)
    .optional()
    .describe(
      'an event id: the page starts after it (a keyset cursor, as cheap at any depth); see next_cursor',
    ),
});

export function eventRoutes(
  deps: EventReadDeps & { producer: Producer; mailboxRetentionSeconds: number } & SendGateDeps,
): RouteDef[] {
  const { db } = deps;
  const reads = deps.readDb ?? db;
  const admit = targetWindow(deps);
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/events',
      auth: 'KS',
      tag: 'events',
      summary:
        'List events (newest first) with filters, offset paging and a keyset cursor (after / next_cursor). ' +
        'Events past record retention (EVENT_RETENTION_SECONDS) are not listed nor counted',
      query: listQuery,
      responses: {
        200: {
          description: 'a page of events',
          schema: z.object({
            events: z.array(eventSummarySchema),
            total: z.number().int(),
            limit: z.number().int(),
            offset: z.number().int(),
            next_cursor: z
              .string()
              .nullable()
              .describe('pass as `after` for the next page; null on the last page'),
          }),
        },
        400: {
          description: 'bad parameters, or `after` is not a visible event of this organization',
          schema: errorSchema,
        },
      },
      handler: async ({ auth, query }) => {
        const page = await listEvents(
          reads,
          auth.orgId,
          {
            endpointId: query.endpoint_id,
            status: query.status,
            eventType: query.event_type,
            correlationId: query.correlation_id,
          },
          { limit: query.limit, offset: query.offset, after: query.after },
          visibleFrom(deps),
        );
        if (page.outcome === 'bad_cursor')
          throw new AppError(
            'validation_failed',
            'after: not an event of this organization, or past retention',
          );
        const { events, total, nextCursor } = page;
        return {
          body: {
            events: events.map(summaryView),
            total,
            limit: query.limit,
            offset: query.offset,
            next_cursor: nextCursor,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/events/:id',
      auth: 'KS',
      tag: 'events',
      summary:
        'One event with its payload (byte for byte) and every delivery attempt. ' +
        'An event past record retention (EVENT_RETENTION_SECONDS) answers 404',
      params: idParams,
      responses: {
        200: { description: 'the event', schema: eventDetailSchema },
        404: {
          description: 'no such event in this organization, or past record retention',
          schema: errorSchema,
        },
      },
      handler: async ({ auth, params }) => {
        const event = await getEvent(reads, auth.orgId, params.id, visibleFrom(deps));
        if (!event) throw notFound('event');
        const attempts = await listAttempts(reads, auth.orgId, event);
        return { body: null, rawJson: detailJson(event, attempts) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/events/:id/replay',
      auth: 'KS',
      tag: 'events',
      summary:
        'Send an event again as a new event (no new usage); the original becomes REPLAYED once settled. ' +
        "Gated as ingestion is: billing, the target's state, and the target's ingest window, which a replay counts in",
      params: idParams,
      responses: {
        200: {
          description: 'the new event',
          schema: z.object({ id: z.string(), status: z.literal('QUEUED'), source_event_id: z.string() }),
        },
        402: { description: 'billing pending or suspended (as for ingestion)', schema: errorSchema },
        404: {
          description: 'no such event in this organization, or past record retention',
          schema: errorSchema,
        },
        409: {
          description: "the event's target is disabled (target_disabled, as for ingestion) or deleted",
          schema: errorSchema,
        },
        410: { description: 'the payload is past retention', schema: errorSchema },
        429: {
          description:
            "the target's ingest window is full (INGEST_RATE_LIMIT per INGEST_RATE_WINDOW_SECONDS, shared with " +
            'ingestion); Retry-After says when to try again',
          schema: errorSchema,
        },
      },
      handler: async ({ auth, params, req }) => {
        const r = await replayEvent(db, auth.orgId, params.id, newId(), req.id, admit, visibleFrom(deps));
        switch (r.outcome) {
          case 'not_found':
            throw notFound('event');
          case 'billing_blocked':
            throw billingBlocked();
          case 'payload_gone':
            throw new AppError(
              'gone',
              'the payload of this event is no longer stored, so it cannot be replayed',
            );
          case 'target_disabled':
            throw new AppError('target_disabled', "the event's target is disabled");
          case 'target_unavailable':
            throw new AppError('conflict', r.reason);
          case 'rate_limited':
            throw windowFull(r.retryAfterSeconds);
          case 'replayed':
            await deps.producer
              .add(r.targetKind === 'a2a' ? 'a2a' : 'webhook', r.id, { eventId: r.id })
              .catch(() => {
                // Committed already; the sweeper enqueues it.
              });
            return { body: { id: r.id, status: 'QUEUED', source_event_id: params.id } };
        }
      },
    }),
    ...statsRoutes(deps),
    // Mounted with the event routes so the API's wiring need not change: they take the same deps.
    ...testEventRoutes(deps),
    ...timeseriesRoutes(deps),
  ];
}
