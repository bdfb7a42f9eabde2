import { sql, type SqlBool } from 'kysely';
import { billingBlocks, idTime, type EventStatus } from '@evds/domain';
import type { Db } from '../database.ts';
import type { DeliveryAttempt, Event } from '../tables/index.ts';
import { countedTotal } from './event-counts.ts';

export interface EventFilter {
  endpointId?: string;
  status?: EventStatus;
  eventType?: string;
  correlationId?: string;
}

export type EventSummary = Pick<Event, 'id' | 'target_id' | 'event_type' | 'status' | 'created_at' | 'test'>;

/**
 * Where an id's row can be: its creation time (newId) give or take a day, so a lookup by id touches
 * one weekly partition or two; null for an older random id, looked up without a range.
 */
export function idRange(id: string): { from: Date; to: Date } | null {
  const t = idTime(id);
  return t && { from: new Date(t.getTime() - DAY_MS), to: new Date(t.getTime() + DAY_MS) };
}
const DAY_MS = 86_400_000;

/**
 * Looks `id` up within the time its digits give, and, only if that finds nothing although they gave a
 * time (an older random id that happens to read as one), once more across every partition.
 */
async function inItsPartition<T>(id: string, find: (ranged: boolean) => Promise<T | undefined>) {
  return (await find(true)) ?? (idRange(id) ? await find(false) : undefined);
}

/** Events of the org by id, as `select` builds them, narrowed to the id's partition when it can be. */
function byId(db: Db, orgId: string, id: string, visibleFrom: Date, ranged: boolean) {
  const range = ranged ? idRange(id) : null;
  let q = db
    .selectFrom('events')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('created_at', '>=', visibleFrom);
  if (range) q = q.where('created_at', '>=', range.from).where('created_at', '<', range.to);
  return q;
}

export type EventPage =
  | { outcome: 'listed'; events: EventSummary[]; total: number; nextCursor: string | null }
  | { outcome: 'bad_cursor' };

/**
 * One page of the org's visible events, newest first, after the event `after` when given (a keyset
 * cursor: its cost does not depend on the depth) and past `offset`, and the exact total matching the
 * filter: from the counters when they answer it, else counted (a correlation id matches few rows).
 */
export async function listEvents(
  db: Db,
  orgId: string,
  filter: EventFilter,
  page: { limit: number; offset: number; after?: string },
  visibleFrom: Date,
): Promise<EventPage> {
  let q = db.selectFrom('events').where('org_id', '=', orgId).where('created_at', '>=', visibleFrom);
  if (filter.endpointId) q = q.where('target_id', '=', filter.endpointId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.eventType) q = q.where('event_type', '=', filter.eventType);
  if (filter.correlationId) q = q.where('correlation_id', '=', filter.correlationId);
  let rows = q;
  if (page.after !== undefined) {
    const cursor = await eventPosition(db, orgId, page.after, visibleFrom);
    if (!cursor) return { outcome: 'bad_cursor' };
    rows = rows.where(
      sql<SqlBool>`(created_at, id) < (${cursor.created_at}::timestamptz, ${cursor.id}::text)`,
    );
  }
  const ordered = <T extends typeof rows>(x: T) =>
    x
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .offset(page.offset);
  const summary = ['id', 'target_id', 'event_type', 'status', 'created_at', 'test'] as const;
  const [events, total] = await Promise.all([
    page.offset === 0
      ? ordered(rows).select(summary).execute()
      : // Deep pages skip the offset over index entries alone (an index-only scan), then read the rows shown.
        db
          .selectFrom('events as e')
          .innerJoin(ordered(rows).select(['id', 'created_at']).as('p'), (j) =>
            j.onRef('e.id', '=', 'p.id').onRef('e.created_at', '=', 'p.created_at'),
          )
          .select(summary.map((c) => `e.${c}` as const))
          .where('e.org_id', '=', orgId)
          .orderBy('e.created_at', 'desc')
          .orderBy('e.id', 'desc')
          .execute(),
    countedTotal(db, orgId, filter, visibleFrom).then(
      async (n) =>
        n ?? Number((await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),
    ),
  ]);
  const shown = events.slice(0, page.limit);
  const nextCursor = events.length > page.limit ? (shown.at(-1)?.id ?? null) : null;
  return { outcome: 'listed', events: shown, total, nextCursor };
}

/** An event's place in the list order, kept in Postgres (microseconds; a Date keeps milliseconds). */
async function eventPosition(db: Db, orgId: string, id: string, visibleFrom: Date) {
  return inItsPartition(id, (ranged) =>
    byId(db, orgId, id, visibleFrom, ranged)
      .select(['id', sql<string>`created_at::text`.as('created_at')])
      .executeTakeFirst(),
  );
}

export type EventDetail = Omit<Event, 'payload'> & { payload: Buffer | null };

/** A visible event of the org; an event past record retention is not found. */
export async function getEvent(
  db: Db,
  orgId: string,
  eventId: string,
  visibleFrom: Date,
): Promise<EventDetail | undefined> {
  return inItsPartition(eventId, (ranged) =>
    byId(db, orgId, eventId, visibleFrom, ranged).selectAll().executeTakeFirst(),
  );
}

/**
 * An event's attempts, oldest first. None is older than its event (a day of slack covers the clocks of
 * the workers and of Postgres), so older partitions are skipped.
 */
export async function listAttempts(
  db: Db,
  orgId: string,
  event: Pick<Event, 'id' | 'created_at'>,
): Promise<DeliveryAttempt[]> {
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('event_id', '=', event.id)
    .where('attempted_at', '>=', new Date(event.created_at.getTime() - DAY_MS))
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
  visibleFrom: Date,
): Promise<ReplayResult> {
  const at = await eventPosition(db, orgId, eventId, visibleFrom);
  if (!at) return { outcome: 'not_found' } as const;
  const here = sql<SqlBool>`created_at = ${at.created_at}::timestamptz`;
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
      .where(sql<SqlBool>`e.created_at = ${at.created_at}::timestamptz`)
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
      from events where id = ${eventId} and ${here}`.execute(tx);
    await tx
      .updateTable('events')
      .set({ status: 'REPLAYED', updated_at: sql<Date>`now()` })
      .where('id', '=', eventId)
      .where(here)
      .where('status', 'in', ['DELIVERED', 'FAILED', 'EXPIRED'])
      .execute();
    return { outcome: 'replayed', id: newId, targetKind: original.target_kind } as const;
  });
}
