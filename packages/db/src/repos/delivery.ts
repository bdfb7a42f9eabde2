import { sql } from 'kysely';
import type { EventStatus, TargetKind } from '@evds/domain';
import type { Db } from '../database.ts';
import { runNamed } from '../prepared.ts';
import { idRange } from './events.ts';
import type { A2aInterface, NewDeliveryAttempt } from '../tables/index.ts';

/** Everything one delivery attempt needs, read in one query. Secrets are still sealed here. */
export interface DeliveryWork {
  id: string;
  created_at: Date;
  org_id: string;
  target_id: string;
  status: EventStatus;
  attempt_count: number;
  event_type: string | null;
  correlation_id: string | null;
  payload: Buffer | null;
  request_id: string | null;
  kind: TargetKind;
  url: string | null;
  enabled: boolean;
  deleted_at: Date | null;
  max_retries: number;
  signing_secret: string | null;
  previous_signing_secret: string | null;
  a2a_interface: A2aInterface | null;
  a2a_auth_type: 'none' | 'bearer' | null;
  a2a_auth_token: string | null;
}

const deliveryWorkColumns = [
  'e.id',
  'e.created_at',
  'e.org_id',
  'e.target_id',
  'e.status',
  'e.attempt_count',
  'e.event_type',
  'e.correlation_id',
  'e.payload',
  'e.request_id',
  't.kind',
  't.url',
  't.enabled',
  't.deleted_at',
  't.max_retries',
  't.signing_secret',
  't.previous_signing_secret',
  't.a2a_interface',
  't.a2a_auth_type',
  't.a2a_auth_token',
] as const;

/** The state an attempt moves its item to. */
export type AttemptOutcome =
  | { status: 'DELIVERED' }
  | { status: 'RETRYING'; nextAttemptAt: Date }
  | { status: 'EXPIRED' | 'FAILED'; reason: string };

/** Ends an item without an attempt, for reasons no retry can fix (target deleted or disabled, payload gone). */
export async function failWithoutAttempt(db: Db, eventId: string, reason: string): Promise<void> {
  await db
    .updateTable('events')
    .set({ status: 'FAILED', final_reason: reason, next_attempt_at: null, updated_at: sql<Date>`now()` })
    .where('id', '=', eventId)
    .where('status', 'in', ['QUEUED', 'RETRYING'])
    .execute();
}

export interface DueItem {
  id: string;
  target_kind: TargetKind;
  attempt_count: number;
  next_attempt_at: Date;
  /** The group job its first attempt was enqueued in, if any (jobGroupId). */
  job_group: number | null;
}

/** Pending items whose next attempt was due before `before`, oldest first, after a keyset cursor. */
export async function listOverdue(
  db: Db,
  before: Date,
  limit: number,
  after?: { at: Date; id: string },
): Promise<DueItem[]> {
  let q = db
    .selectFrom('events')
    .select(['id', 'target_kind', 'attempt_count', 'next_attempt_at', 'job_group'])
    .where('status', 'in', ['QUEUED', 'RETRYING'])
    .where('next_attempt_at', '<', before);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('next_attempt_at', '>', after.at),
        eb.and([eb('next_attempt_at', '=', after.at), eb('id', '>', after.id)]),
      ]),
    );
  const rows = await q.orderBy('next_attempt_at').orderBy('id').limit(limit).execute();
  return rows as DueItem[];
}

/**
 * Of `items`, the ids still pending at the attempt count they were listed with: read after their jobs
 * were seen dead, so an attempt that completed in between (and moved its item on) is not repeated.
 */
export async function stillDue(db: Db, items: Pick<DueItem, 'id' | 'attempt_count'>[]): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const rows = await db
    .selectFrom('events')
    .select(['id', 'attempt_count'])
    .where(
      'id',
      'in',
      items.map((i) => i.id),
    )
    .where('status', 'in', ['QUEUED', 'RETRYING'])
    .execute();
  const listed = new Map(items.map((i) => [i.id, i.attempt_count]));
  return new Set(rows.filter((r) => listed.get(r.id) === r.attempt_count).map((r) => r.id));
}

/** Drops archived payloads older than the retention; returns how many were dropped. */
export async function dropExpiredPayloads(db: Db, olderThan: Date, batch: number): Promise<number> {
  const r = await db
    .updateTable('events')
    .set({ payload: null, updated_at: sql<Date>`now()` })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('events')
        .select('id')
        .where('payload', 'is not', null)
        .where('created_at', '<', olderThan)
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Housekeeping of rows that only matter until they expire. */
export async function deleteExpiredKeysAndSessions(db: Db): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('sessions')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
}

/**
 * Everything the attempts of these items need, in one query (the worker batches concurrent jobs'
 * reads). The ids' creation times bound the query to their partitions; ids not found that way (an
 * older random id whose digits look like a time) are looked for again across all of them.
 */
export async function loadDeliveryWorkMany(db: Db, eventIds: string[]): Promise<DeliveryWork[]> {
  if (eventIds.length === 0) return [];
  const load = (ids: string[], range: { from: Date; to: Date } | null) => {
    let q = db
      .selectFrom('events as e')
      .innerJoin('targets as t', 't.id', 'e.target_id')
      .select(deliveryWorkColumns)
      .where('e.id', '=', sql<string>`any(${ids}::text[])`);
    if (range) q = q.where('e.created_at', '>=', range.from).where('e.created_at', '<', range.to);
    return runNamed(db, q);
  };
  const range = spanOf(eventIds.map(idRange));
  const found = await load(eventIds, range);
  if (!range || found.length === eventIds.length) return found;
  const seen = new Set(found.map((w) => w.id));
  const rest = eventIds.filter((id) => !seen.has(id));
  return [...found, ...(await load(rest, null))];
}

/** The smallest range holding all of these, or null when one is unbounded. */
function spanOf(ranges: ({ from: Date; to: Date } | null)[]): { from: Date; to: Date } | null {
  if (ranges.some((r) => r === null)) return null;
  const rs = ranges as { from: Date; to: Date }[];
  return {
    from: new Date(Math.min(...rs.map((r) => r.from.getTime()))),
    to: new Date(Math.max(...rs.map((r) => r.to.getTime()))),
  };
}

export interface AttemptRecord {
  attempt: NewDeliveryAttempt;
  expectedAttemptCount: number;
  /** The item's creation time, as loaded: bounds the update to the item's partitions. */
  eventCreatedAt?: Date;
  outcome: AttemptOutcome;
}

// The pending statuses travel as a parameter: written as constants, they match the predicate of the
// partial index on pending items, and a kept plan made while the partition's statistics were stale
// (a burst inserted since the last ANALYZE) could pick a pass over every pending item for each batch
// instead of one primary-key probe per item (seen in the drain: 22 ms for 52 items instead of 3).
const PENDING = ['QUEUED', 'RETRYING'];

/**
 * Postgres text cannot hold U+0000, and what a receiver or an agent answers may (a body, a task id, an
 * error quoting either): it is kept with U+FFFD in its place, so one such answer cannot fail the batch
 * of records it is in.
 */
const pgText = (v: string | null | undefined): string | null =>
  v == null ? null : v.includes('\0') ? v.replaceAll('\0', '\uFFFD') : v;

/**
 * Logs attempts and moves their items, in one statement (so one round trip, committed whole): a
 * multi-row insert of the attempts in a CTE and one UPDATE ... FROM unnest(...) of the items. Each
 * move applies only if its item is still where the attempt found it (same attempt count, still
 * pending), so a duplicate job running the same attempt concurrently cannot move it twice. Returns, per
 * record, whether it moved its item.
 */
export async function recordAttempts(db: Db, records: AttemptRecord[]): Promise<boolean[]> {
  if (records.length === 0) return [];
  // Each column travels as one array: the statement is the same text whatever the batch size.
  const col = <T>(f: (r: AttemptRecord) => T) => records.map(f);
  const a = (f: (x: NewDeliveryAttempt) => unknown) => col((r) => f(r.attempt) ?? null);
  const bounds = spanOf(
    col(({ eventCreatedAt: t }) =>
      t ? { from: new Date(t.getTime() - 1000), to: new Date(t.getTime() + 1000) } : null,
    ),
  );
  const moved = await runNamed(
    db,
    sql<{ id: string }>`
    with logged as (
      insert into delivery_attempts (id, event_id, org_id, target_id, attempt_number, status_code, duration_ms,
                                     attempted_at, response_body, error, a2a_task_id, a2a_task_state,
                                     retry_after, next_attempt_at)
      select * from unnest(${a((x) => x.id)}::text[], ${a((x) => x.event_id)}::text[], ${a((x) => x.org_id)}::text[],
                           ${a((x) => x.target_id)}::text[], ${a((x) => x.attempt_number)}::int[],
                           ${a((x) => x.status_code)}::int[], ${a((x) => x.duration_ms)}::int[],
                           ${a((x) => x.attempted_at)}::timestamptz[], ${a((x) => pgText(x.response_body))}::text[],
                           ${a((x) => pgText(x.error))}::text[], ${a((x) => pgText(x.a2a_task_id))}::text[],
                           ${a((x) => pgText(x.a2a_task_state))}::text[], ${a((x) => pgText(x.retry_after))}::text[],
                           ${a((x) => x.next_attempt_at)}::timestamptz[]))
    update events e set
      status = v.status,
      attempt_count = v.expected + 1,
      last_attempt_at = v.attempted_at,
      next_attempt_at = v.next_attempt_at,
      delivered_at = case when v.status = 'DELIVERED' then now() else null end,
      final_reason = v.final_reason,
      updated_at = now()
    from unnest(${col((r) => r.attempt.event_id)}::text[], ${col((r) => r.expectedAttemptCount)}::int[],
                ${col((r) => r.outcome.status)}::text[], ${a((x) => x.attempted_at)}::timestamptz[],
                ${col((r) => (r.outcome.status === 'RETRYING' ? r.outcome.nextAttemptAt : null))}::timestamptz[],
                ${col((r) => (r.outcome.status === 'EXPIRED' || r.outcome.status === 'FAILED' ? pgText(r.outcome.reason) : null))}::text[])
      as v(id, expected, status, attempted_at, next_attempt_at, final_reason)
    where e.id = v.id and e.attempt_count = v.expected and e.status = any(${PENDING}::text[])
      ${bounds ? sql`and e.created_at >= ${bounds.from} and e.created_at < ${bounds.to}` : sql``}
    returning e.id`,
  );
  const ids = new Set(moved.map((r) => r.id));
  return records.map((r) => ids.has(r.attempt.event_id));
}
