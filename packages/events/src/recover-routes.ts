// Recover (bulk replay): replays every event of one target created in [since, until) with one of the
// given statuses, exactly as POST /api/v1/events/:id/replay would, as a background job that paces
// itself. A recovery is a record like any other but events: its timestamps are Unix seconds.
import { createRecovery, getRecovery, type Db, type Recovery } from '@evds/db';
import {
  AppError,
  billingBlocked,
  eventStatuses,
  newId,
  notFound,
  unixOrNull,
  unixSeconds,
  windowFull,
} from '@evds/domain';
import { type RouteDef, defineRoute, idParams, errorSchema } from '@evds/http';
import type { Producer } from '@evds/queue';
import { z } from 'zod';
import { targetWindow, type SendGateDeps } from './gates.ts';

/** Settled states only: an event still QUEUED or RETRYING is in flight, a REPLAYED one was replayed. */
const recoverable = ['FAILED', 'EXPIRED', 'DELIVERED'] as const;
/** Seconds up to 9999-12-31, so every accepted value is a valid Postgres timestamp. */
const seconds = z.number().int().min(0).max(253_402_300_799);

const recoverInput = z.strictObject({
  since: seconds.describe('Unix seconds, inclusive: events created at or after it'),
  until: seconds
    .optional()
    .describe('Unix seconds, exclusive; defaults to (and is capped at) the time of the request, rounded up'),
  statuses: z
    .array(z.enum(recoverable))
    .min(1)
    .max(recoverable.length)
    .refine((xs) => new Set(xs).size === xs.length, 'must not repeat a status')
    .optional()
    .describe('event statuses to replay; default ["FAILED", "EXPIRED"]'),
});

export const recoverySchema = z.object({
  id: z.string(),
  target_id: z.string(),
  since: z.number().int().describe('Unix seconds, inclusive'),
  until: z.number().int().describe('Unix seconds, exclusive'),
  statuses: z.array(z.enum(eventStatuses)),
  state: z.enum(['running', 'completed', 'failed']),
  matched: z.number().int().describe('events that matched when the recovery was created'),
  replayed: z.number().int().describe('new events created so far (QUEUED, source_event_id set, no usage)'),
  skipped: z.number().int().describe('matched events whose payload was past retention, so not replayed'),
  failure_reason: z.string().nullable().describe('why the recovery stopped, when state is failed'),
  created_at: z.number().int().describe('Unix seconds'),
  finished_at: z.number().int().nullable().describe('Unix seconds; null while running'),
});

export const recoveryView = (r: Recovery): z.infer<typeof recoverySchema> => ({
  id: r.id,
  target_id: r.target_id,
  since: unixSeconds(r.since),
  until: unixSeconds(r.until),
  statuses: r.statuses,
  state: r.state,
  matched: r.matched,
  replayed: r.replayed,
  skipped: r.skipped,
  failure_reason: r.failure_reason,
  created_at: unixSeconds(r.created_at),
  finished_at: unixOrNull(r.finished_at),
});

export function recoverRoutes(deps: { db: Db; producer: Producer } & SendGateDeps): RouteDef[] {
  const { db } = deps;
  const admit = targetWindow(deps);
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/targets/:id/recover',
      auth: 'KS',
      tag: 'events',
      summary:
        'Replay in the background, each once and as a single replay would, the events of a target created in [since, until) with the given statuses. ' +
        "Gated as ingestion is: billing, the target's state, and the target's ingest window, in which the request counts once. " +
        'One recovery of a target runs at a time: another is refused until it has finished. ' +
        'A recovery running when the workspace becomes billing-blocked stops, failed, with a failure_reason saying so',
      params: idParams,
      body: recoverInput,
      responses: {
        202: { description: 'the recovery, started', schema: recoverySchema },
        400: {
          description:
            'a body that fails the schema (the message names the field), since not before until, or a mailbox target (wrong_target_kind)',
          schema: errorSchema,
        },
        402: { description: 'billing pending or suspended (as for ingestion)', schema: errorSchema },
        404: { description: 'no such target in this organization', schema: errorSchema },
        409: {
          description:
            'the target is disabled (target_disabled, as for ingestion) or deleted (conflict), or a recovery of it is ' +
            'still running (conflict; the message names its id): one runs per target at a time',
          schema: errorSchema,
        },
        429: {
          description:
            "the target's ingest window is full (shared with ingestion); Retry-After says when to try again",
          schema: errorSchema,
        },
      },
      handler: async ({ auth, params, body, req }) => {
        const now = Math.ceil(Date.now() / 1000);
        const until = Math.min(body.until ?? now, now);
        if (body.since >= until)
          throw new AppError(
            'validation_failed',
            body.until === undefined || body.until > now
              ? 'since: must be before the time of the request'
              : 'until: must be after since',
          );
        const r = await createRecovery(
          db,
          auth.orgId,
          {
            id: newId(),
            targetId: params.id,
            since: new Date(body.since * 1000),
            until: new Date(until * 1000),
            statuses: body.statuses ?? ['FAILED', 'EXPIRED'],
            requestId: req.id,
          },
          admit,
        );
        switch (r.outcome) {
          case 'not_found':
            throw notFound('target');
          case 'wrong_kind':
            throw new AppError('wrong_target_kind', 'a mailbox target has no deliveries to recover');
          case 'billing_blocked':
            throw billingBlocked();
          case 'target_disabled':
            throw new AppError('target_disabled', 'the target is disabled');
          case 'target_unavailable':
            throw new AppError('conflict', r.reason);
          case 'already_running':
            throw new AppError(
              'conflict',
              r.runningId
                ? `a recovery of this target is already running: ${r.runningId}; wait for it to finish`
                : 'a recovery of this target is already running; wait for it to finish',
            );
          case 'rate_limited':
            throw windowFull(r.retryAfterSeconds);
          case 'created':
            await deps.producer.add('recovery', r.recovery.id, { recoveryId: r.recovery.id }).catch(() => {
              // Committed already; the sweeper adds the job of a running recovery that has none.
            });
            return { status: 202, body: recoveryView(r.recovery) };
        }
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/recoveries/:id',
      auth: 'KS',
      tag: 'events',
      summary: 'A recovery and its progress',
      params: idParams,
      responses: {
        200: { description: 'the recovery', schema: recoverySchema },
        404: { description: 'no such recovery in this organization', schema: errorSchema },
      },
      handler: async ({ auth, params }) => {
        const r = await getRecovery(db, auth.orgId, params.id);
        if (!r) throw notFound('recovery');
        return { body: recoveryView(r) };
      },
    }),
  ];
}
