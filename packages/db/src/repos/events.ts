import { sql } from 'kysely';
import { billingBlocks, type EventStatus } from '@evds/domain';
import type { Db } from '../database.ts';
import type { DeliveryAttempt, Event } from '../tables/index.ts';

export interface EventFilter {
  endpointId?: string;
  status?: EventStatus;
  eventType?: string;
  correlationId?: string;
}

export type EventSummary = Pick<Event, 'id' | 'target_id' | 'event_type' | 'status' | 'created_at' | 'test'>;

/** One page of the org's events, newest first, and the total matching the filter. */
export async function listEvents(
  db: Db,
  orgId: string,
  filter: EventFilter,
  page: { limit: number; offset: number },
): Promise<{ events: EventSummary[]; total: number }> {
  let q = db.selectFrom('events').where('org_id', '=', orgId);
  if (filter.endpointId) q = q.where('target_id', '=', filter.endpointId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.eventType) q = q.where('event_type', '=', filter.eventType);
  if (filter.correlationId) q = q.where('correlation_id', '=', filter.correlationId);
  const [events, count] = await Promise.all([
    q
      .select(['id', 'target_id', 'event_type', 'status', 'created_at', 'test'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { events, total: count.n };
}

export type EventDetail = Omit<Event, 'payload'> & { payload: Buffer | null };

export async function getEvent(db: Db, orgId: string, eventId: string): Promise<EventDetail | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', eventId)
    .executeTakeFirst();
}

export async function listAttempts(db: Db, orgId: string, eventId: string): Promise<DeliveryAttempt[]> {
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('event_id', '=', eventId)
    .orderBy('attempted_at')
    .orderBy('attempt_number')
    .execute();
}

export type ReplayResult =
  | { outcome: 'replayed'; id: string; targetKind: string }
  | { outcome: 'not_found' }
  | { outcome: 'billing_blocked' }
  | { outcome: 'payload_gone' }
  | { outcome: 'target_disabled' }
  | { outcome: 'target_unavailable'; reason: string }
  | { outcome: 'rate_limited'; retryAfterSeconds: number };

/**
 * Asked once every other check has passed, just before an item is written for a target: may the
 * target take one more now? (The API passes the target's ingest window, which ingestion shares.)
 */
export type TargetAdmission = (targetId: string) => Promise<{ allowed: boolean; retryAfterSeconds: number }>;

/**
 * A replay is a new QUEUED event with the original's payload (copied inside Postgres), its
 * source_event_id set and no usage record. The original becomes REPLAYED if it had settled. It is
 * refused as ingestion would refuse the item: billing pending or suspended, target disabled, or the
 * target's window full (`admit`, asked last so a refused replay takes no place in it).
 */
export async function replayEvent(
  db: Db,
  orgId: string,
  eventId: string,
  newId: string,
  requestId: string | null,
  admit: TargetAdmission,
): Promise<ReplayResult> {
  return db.transaction().execute(async (tx) => {
    const original = await tx
      .selectFrom('events as e')
      .innerJoin('targets as t', 't.id', 'e.target_id')
      .innerJoin('organizations as o', 'o.id', 'e.org_id')
      .select([
        'e.id',
        'e.target_id',
        'e.target_kind',
        sql<boolean>`e.payload is not null`.as('has_payload'),
        't.deleted_at',
        't.enabled',
        'o.billing_status',
      ])
      .where('e.org_id', '=', orgId)
      .where('e.id', '=', eventId)
      .forUpdate('e')
      .executeTakeFirst();
    if (!original) return { outcome: 'not_found' } as const;
    if (billingBlocks(original.billing_status)) return { outcome: 'billing_blocked' } as const;
    if (!original.has_payload) return { outcome: 'payload_gone' } as const;
    if (original.deleted_at)
      return { outcome: 'target_unavailable', reason: "the event's target was deleted" } as const;
    if (!original.enabled) return { outcome: 'target_disabled' } as const;
    const admitted = await admit(original.target_id);
    if (!admitted.allowed)
      return { outcome: 'rate_limited', retryAfterSeconds: admitted.retryAfterSeconds } as const;
    await sql`
      insert into events (id, org_id, target_id, target_kind, event_type, correlation_id, status, source_event_id,
                          payload, payload_size, next_attempt_at, request_id, test)
      select ${newId}, org_id, target_id, target_kind, event_type, correlation_id, 'QUEUED', id,
             payload, payload_size, now(), ${requestId}, test
      from events where id = ${eventId}`.execute(tx);
    await tx
      .updateTable('events')
      .set({ status: 'REPLAYED', updated_at: sql<Date>`now()` })
      .where('id', '=', eventId)
      .where('status', 'in', ['DELIVERED', 'FAILED', 'EXPIRED'])
      .execute();
    return { outcome: 'replayed', id: newId, targetKind: original.target_kind } as const;
  });
}

export interface DeliveryStats {
  byStatus: Record<string, number>;
  attempts: { total: number; succeeded: number; failed: number };
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
}

/** Events created and attempts made since `since`, for one org. */
export async function deliveryStats(db: Db, orgId: string, since: Date): Promise<DeliveryStats> {
  const [statuses, attempts] = await Promise.all([
    db
      .selectFrom('events')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('org_id', '=', orgId)
      .where('created_at', '>=', since)
      .groupBy('status')
      .execute(),
    sql<{ total: number; succeeded: number; p50: number | null; p95: number | null; p99: number | null }>`
      select count(*)::int as total,
             count(*) filter (where status_code between 200 and 299)::int as succeeded,
             percentile_cont(0.5) within group (order by duration_ms) as p50,
             percentile_cont(0.95) within group (order by duration_ms) as p95,
             percentile_cont(0.99) within group (order by duration_ms) as p99
      from delivery_attempts where org_id = ${orgId} and attempted_at >= ${since}`.execute(db),
  ]);
  const a = attempts.rows[0] ?? { total: 0, succeeded: 0, p50: null, p95: null, p99: null };
  const round = (x: number | null) => (x === null ? null : Math.round(x));
  return {
    byStatus: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
    attempts: { total: a.total, succeeded: a.succeeded, failed: a.total - a.succeeded },
    latencyMs: { p50: round(a.p50), p95: round(a.p95), p99: round(a.p99) },
  };
}
