import { sql } from 'kysely';
import { billingBlocks, type BillingStatus, type EventStatus, type TargetKind } from '@evds/domain';
import type { Db } from '../database.ts';
import type { TargetAdmission } from './events.ts';
import type { Recovery, RecoveryState } from '../tables/index.ts';

export interface RecoveryInput {
  id: string;
  targetId: string;
  since: Date;
  until: Date;
  statuses: EventStatus[];
  requestId: string | null;
}

export type CreateRecoveryResult =
  | { outcome: 'created'; recovery: Recovery }
  | { outcome: 'not_found' }
  | { outcome: 'wrong_kind' }
  | { outcome: 'billing_blocked' }
  | { outcome: 'target_disabled' }
  | { outcome: 'target_unavailable'; reason: string }
  /** `runningId` is null only if the running one finished between the conflict and the look-up. */
  | { outcome: 'already_running'; runningId: string | null }
  | { outcome: 'rate_limited'; retryAfterSeconds: number };

/** The id of the target's running recovery, if it has one (the index recoveries_one_running allows one). */
async function runningRecoveryOf(db: Db, targetId: string): Promise<string | null> {
  const r = await db
    .selectFrom('recoveries')
    .select('id')
    .where('target_id', '=', targetId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return r?.id ?? null;
}

/**
 * A recovery in state `running`, with `matched` counted in the same transaction. The target row is
 * locked (share) so it cannot be disabled or deleted between the check and the insert. Refused as
 * a replay is: billing pending or suspended, target disabled, or the target's window full (`admit`,
 * asked last: the request counts once in the window, whatever number of events it will replay).
 * Refused too while the target has a running recovery: since each counts once in the window, several
 * at once would multiply the target's load. Checked before `admit`, so a refusal takes no place in the
 * window; two requests racing past that check meet the partial unique index, and the loser's insert
 * (`on conflict do nothing`, which waits for the winner to commit) writes nothing.
 */
export async function createRecovery(
  db: Db,
  orgId: string,
  input: RecoveryInput,
  admit: TargetAdmission,
): Promise<CreateRecoveryResult> {
  return db.transaction().execute(async (tx) => {
    const target = await tx
      .selectFrom('targets as t')
      .innerJoin('organizations as o', 'o.id', 't.org_id')
      .select(['t.kind', 't.enabled', 't.deleted_at', 'o.billing_status'])
      .where('t.org_id', '=', orgId)
      .where('t.id', '=', input.targetId)
      .forShare('t')
      .executeTakeFirst();
    if (!target) return { outcome: 'not_found' } as const;
    if (target.kind === 'mailbox') return { outcome: 'wrong_kind' } as const;
    if (billingBlocks(target.billing_status)) return { outcome: 'billing_blocked' } as const;
    if (target.deleted_at)
      return { outcome: 'target_unavailable', reason: 'the target was deleted' } as const;
    if (!target.enabled) return { outcome: 'target_disabled' } as const;
    const running = await runningRecoveryOf(tx, input.targetId);
    if (running) return { outcome: 'already_running', runningId: running } as const;
    const admitted = await admit(input.targetId);
    if (!admitted.allowed)
      return { outcome: 'rate_limited', retryAfterSeconds: admitted.retryAfterSeconds } as const;
    const { n } = await tx
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('target_id', '=', input.targetId)
      .where('created_at', '>=', input.since)
      .where('created_at', '<', input.until)
      .where('status', 'in', input.statuses)
      .executeTakeFirstOrThrow();
    const recovery = await tx
      .insertInto('recoveries')
      .values({
        id: input.id,
        org_id: orgId,
        target_id: input.targetId,
        since: input.since,
        until: input.until,
        statuses: input.statuses,
        state: 'running',
        matched: n,
        request_id: input.requestId,
      })
      .onConflict((oc) => oc.column('target_id').where('state', '=', 'running').doNothing())
      .returningAll()
      .executeTakeFirst();
    // No row: a racing request's recovery won. Read committed, so this look-up sees it (committed while
    // the insert waited on it).
    if (!recovery)
      return { outcome: 'already_running', runningId: await runningRecoveryOf(tx, input.targetId) } as const;
    return { outcome: 'created', recovery } as const;
  });
}

export async function getRecovery(db: Db, orgId: string, id: string): Promise<Recovery | undefined> {
  return db
    .selectFrom('recoveries')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The failure_reason of a recovery stopped by the workspace's billing. */
const RECOVERY_BILLING_BLOCKED =
  "stopped: the workspace's billing became pending or suspended; start a new recovery once it is active";

export interface RecoveryBatch {
  /** The recovery's state after the batch; 'gone' when there is no such recovery. */
  state: RecoveryState | 'gone';
  /** The replays this batch created, to enqueue once it has committed. */
  replays: { id: string; kind: TargetKind }[];
}

/**
 * One batch of a recovery, in one transaction: the next `limit` matching originals after the cursor
 * (locked), a replay of each whose payload is still stored (as replayEvent makes it, recovery_id set),
 * those originals REPLAYED, the others counted as skipped, and the cursor and counters moved on. A batch
 * retried after a crash either finds its work committed (the cursor moved with it) or redoes all of
 * it; claiming each original in recovery_replays (`on conflict do nothing`) holds even if both somehow
 * happened. The claims go when the recovery ends.
 * A target disabled or deleted meanwhile fails the recovery, as it would refuse a single replay; so
 * does a workspace whose billing became pending or suspended (the job stops there rather than pausing:
 * a new recovery over the same range later replays only what this one did not, since what it replayed
 * is REPLAYED now).
 * Called by the recovery job, which knows only the recovery's id: the row carries its organization.
 */
export async function runRecoveryBatch(
  db: Db,
  recoveryId: string,
  limit: number,
  newId: () => string,
): Promise<RecoveryBatch> {
  return db.transaction().execute(async (tx) => {
    const r = await tx
      .selectFrom('recoveries as r')
      .innerJoin('targets as t', 't.id', 'r.target_id')
      .innerJoin('organizations as o', 'o.id', 'r.org_id')
      .select([
        'r.state',
        'r.request_id',
        'r.org_id',
        'r.target_id',
        't.enabled',
        't.deleted_at',
        'o.billing_status',
      ])
      .where('r.id', '=', recoveryId)
      .forUpdate('r')
      .executeTakeFirst();
    if (!r) return { state: 'gone', replays: [] };
    if (r.state !== 'running') return { state: r.state, replays: [] };
    const stop = stopReason(r);
    if (stop) {
      await finish(tx, recoveryId, 'failed', stop);
      return { state: 'failed', replays: [] };
    }

    // The cursor stays in Postgres (microseconds; a JavaScript Date would cut it to milliseconds).
    // `created_at >= coalesce(cursor, since)` lets the index skip what earlier batches went through.
    const page = await sql<{ id: string; has_payload: boolean }>`
      select e.id, e.payload is not null as has_payload
        from recoveries r
        join events e on e.org_id = r.org_id and e.target_id = r.target_id
       where r.id = ${recoveryId}
         and e.created_at >= coalesce(r.cursor_created_at, r.since) and e.created_at < r.until
         and (r.cursor_id is null or (e.created_at, e.id) > (r.cursor_created_at, r.cursor_id))
         and e.status = any(r.statuses)
         and e.recovery_id is distinct from r.id
       order by e.created_at, e.id
       limit ${limit}
       for update of e`.execute(tx);
    const rows = page.rows;
    // The recovery's range, kept in Postgres (microseconds): it bounds the writes below to its partitions.
    const range = {
      since: sql<Date>`(select since from recoveries where id = ${recoveryId})`,
      until: sql<Date>`(select until from recoveries where id = ${recoveryId})`,
    };
    const sources = rows.filter((row) => row.has_payload).map((row) => row.id);
    const replays =
      sources.length === 0
        ? []
        : (
            await sql<{ id: string; kind: TargetKind }>`
              with claimed as (
                insert into recovery_replays (recovery_id, source_event_id)
                select ${recoveryId}, x.source_id from unnest(${sources}::text[]) as x(source_id)
                on conflict do nothing
                returning source_event_id)
              insert into events (id, org_id, target_id, target_kind, event_type, correlation_id, status,
                                  source_event_id, payload, payload_size, next_attempt_at, request_id, recovery_id, test)
              select x.new_id, e.org_id, e.target_id, e.target_kind, e.event_type, e.correlation_id, 'QUEUED',
                     e.id, e.payload, e.payload_size, now(), ${r.request_id}, ${recoveryId}, e.test
                from unnest(${sources}::text[], ${sources.map(() => newId())}::text[]) as x(source_id, new_id)
                join claimed c on c.source_event_id = x.source_id
                join events e on e.id = x.source_id
                 and e.org_id = ${r.org_id} and e.target_id = ${r.target_id}
                 and e.created_at >= ${range.since} and e.created_at < ${range.until}
              returning id, target_kind as kind`.execute(tx)
          ).rows;
    if (sources.length > 0)
      await tx
        .updateTable('events')
        .set({ status: 'REPLAYED', updated_at: sql<Date>`now()` })
        .where('id', 'in', sources)
        .where('created_at', '>=', range.since)
        .where('created_at', '<', range.until)
        .where('status', 'in', ['DELIVERED', 'FAILED', 'EXPIRED'])
        .execute();

    const last = rows.at(-1)?.id ?? null;
    const done = rows.length < limit;
    await tx
      .updateTable('recoveries')
      .set({
        replayed: sql<number>`replayed + ${replays.length}`,
        skipped: sql<number>`skipped + ${rows.length - sources.length}`,
        cursor_created_at: sql<Date>`coalesce((select created_at from events where id = ${last}), cursor_created_at)`,
        cursor_id: sql<string>`coalesce(${last}::text, cursor_id)`,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', recoveryId)
      .execute();
    if (done) await finish(tx, recoveryId, 'completed', null);
    return { state: done ? 'completed' : 'running', replays };
  });
}

/** Why a running recovery must stop before its next batch, if it must. */
function stopReason(r: { deleted_at: Date | null; enabled: boolean; billing_status: BillingStatus }) {
  if (r.deleted_at) return 'the target was deleted';
  if (!r.enabled) return 'the target is disabled';
  if (billingBlocks(r.billing_status)) return RECOVERY_BILLING_BLOCKED;
  return null;
}

async function finish(db: Db, id: string, state: RecoveryState, reason: string | null): Promise<void> {
  await db.deleteFrom('recovery_replays').where('recovery_id', '=', id).execute();
  await db
    .updateTable('recoveries')
    .set({ state, failure_reason: reason, finished_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/**
 * Running recoveries not moved on since `before`: candidates for a job that was lost (Redis flushed)
 * or failed. A live job moves its recovery on every batch, so it rarely shows up here.
 */
export async function listIdleRecoveries(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('recoveries')
    .select('id')
    .where('state', '=', 'running')
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
