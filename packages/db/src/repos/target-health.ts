// A target's delivery health on its row: the outcomes of its attempts (written by the delivery
// processor once per batch) and auto-disable (a maintenance task), which ends a target that has failed
// every attempt for too long, with its pending events. Maintenance reads across organizations, like the
// sweeper; the delivery worker passes outcomes of attempts it made itself.
import { sql } from 'kysely';
import type { Db } from '../database.ts';
import { runNamed } from '../prepared.ts';

export interface AttemptOutcomeNote {
  targetId: string;
  at: Date;
  ok: boolean;
}

/** One target's outcomes in a batch, reduced to what the row needs. */
interface Summary {
  targetId: string;
  /** The latest success of the batch. */
  okAt: Date | null;
  /** The first failure after okAt (after nothing when the batch has no success). */
  failFirst: Date | null;
  /** The latest failure of the batch, before or after okAt. */
  failLast: Date | null;
  /** Failures after okAt (all of them when the batch has no success). */
  failAfter: number;
}

function summarize(outcomes: AttemptOutcomeNote[]): Summary[] {
  const byTarget = new Map<string, AttemptOutcomeNote[]>();
  for (const o of outcomes) {
    const list = byTarget.get(o.targetId);
    if (list) list.push(o);
    else byTarget.set(o.targetId, [o]);
  }
  return [...byTarget].map(([targetId, list]) => {
    const s: Summary = { targetId, okAt: null, failFirst: null, failLast: null, failAfter: 0 };
    for (const o of list.sort((a, b) => a.at.getTime() - b.at.getTime())) {
      if (o.ok) {
        s.okAt = o.at;
        s.failFirst = null;
        s.failAfter = 0;
      } else {
        s.failFirst ??= o.at;
        s.failLast = o.at;
        s.failAfter++;
      }
    }
    return s;
  });
}

// Every new value is an expression over the row as it is when the update reaches it (t) and the
// batch's summary (v), never a value read earlier in JS: two workers noting outcomes of one target at
// once both count, whichever commits first.
//
// The batch's success ends the stored failing run when it is newer than the run's start: the run is then
// the batch's failures after it. Failures all older than the stored last success change no run (another
// worker already recorded a later success). Otherwise the batch's failures continue the run, which
// began at the earlier of its stored start and the batch's first failure after the stored last success
// (concurrent batches may commit out of time order). Interleavings of one target's attempts across
// workers can still make the count approximate; the times stay ordered (a run starts after the success).
const resets = sql`(v.ok_at is not null and (t.failing_since is null or t.failing_since <= v.ok_at))`;
const stale = sql`(t.last_success_at >= v.fail_last)`;
const next = {
  consecutive_failures: sql`case when ${resets} then v.fail_after when ${stale} then t.consecutive_failures
    else t.consecutive_failures + v.fail_after end`,
  failing_since: sql`case when ${resets} then v.fail_first when ${stale} then t.failing_since
    else least(t.failing_since, case when t.last_success_at >= v.fail_first then v.fail_last else v.fail_first end)
    end`,
  // The hot path: a healthy, busy target succeeds on every batch. Its last success moves only when the
  // stored one is over 60 s old (or missing), or when the row is written anyway (the target was failing
  // or the batch ends failing), so such a target's row is written about once a minute, not per batch.
  last_success_at: sql`case when v.ok_at > coalesce(t.last_success_at, '-infinity') and (
      t.last_success_at is null or t.last_success_at < v.ok_at - interval '60 seconds'
      or t.failing_since is not null or t.consecutive_failures > 0 or v.fail_after > 0)
    then v.ok_at else t.last_success_at end`,
  last_failure_at: sql`greatest(t.last_failure_at, v.fail_last)`,
};
const changes = sql`(${next.consecutive_failures}, ${next.failing_since}, ${next.last_success_at},
  ${next.last_failure_at}) is distinct from
  (t.consecutive_failures, t.failing_since, t.last_success_at, t.last_failure_at)`;

/**
 * Records a batch of attempt outcomes on their targets' rows, in one statement. A row is written only
 * when its health changes (see the 60 s rule above). The rows that change are locked in id order first,
 * so two workers' batches over the same targets wait for each other instead of deadlocking.
 */
export async function noteAttemptOutcomes(db: Db, outcomes: AttemptOutcomeNote[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = summarize(outcomes);
  const col = <T>(f: (s: Summary) => T) => rows.map(f);
  // Each column as one array: the text is the same whatever the batch, so it runs as a named statement.
  await runNamed(
    db,
    sql`
    with v(target_id, ok_at, fail_first, fail_last, fail_after) as (
      select * from unnest(${col((s) => s.targetId)}::text[], ${col((s) => s.okAt)}::timestamptz[],
                           ${col((s) => s.failFirst)}::timestamptz[], ${col((s) => s.failLast)}::timestamptz[],
                           ${col((s) => s.failAfter)}::int[])),
    locked as (
      select t.id from targets t join v on v.target_id = t.id
      where ${changes}
      order by t.id
      for update of t
    )
    update targets t set
      consecutive_failures = ${next.consecutive_failures},
      failing_since = ${next.failing_since},
      last_success_at = ${next.last_success_at},
      last_failure_at = ${next.last_failure_at}
    from v, locked
    where t.id = v.target_id and t.id = locked.id and ${changes}`,
  );
}

export interface AutoDisabledTarget {
  orgId: string;
  targetId: string;
  reason: string;
  /** Its pending (QUEUED, RETRYING) events that were ended FAILED with the reason. */
  failedEvents: number;
}

export const autoDisableReason = (failingSince: Date): string =>
  `auto-disabled: every attempt failed since ${failingSince.toISOString()}`;

/**
 * Disables every enabled, live target whose failing run began at or before `now - afterSeconds`
 * (exactly `afterSeconds` of failing is enough), up to `limit` per call, and ends its pending events
 * FAILED with the reason, in one transaction: an item is never left pending on a disabled target.
 * `afterSeconds` 0 (or less) disables nothing.
 */
export async function autoDisableFailingTargets(
  db: Db,
  now: Date,
  afterSeconds: number,
  opts: { limit?: number } = {},
): Promise<AutoDisabledTarget[]> {
  if (afterSeconds <= 0) return [];
  const cutoff = new Date(now.getTime() - afterSeconds * 1000);
  return db.transaction().execute(async (tx) => {
    // Locked in id order, like noteAttemptOutcomes; a success committed while this waited takes the
    // target out of the run (the condition is checked again on the row as it is then).
    const due = await tx
      .selectFrom('targets')
      .select(['id', 'org_id', 'failing_since'])
      .where('enabled', '=', true)
      .where('deleted_at', 'is', null)
      .where('failing_since', '<=', cutoff)
      .orderBy('id')
      .limit(opts.limit ?? 100)
      .forUpdate()
      .execute();
    if (due.length === 0) return [];
    const disabled = due.map((t) => ({
      orgId: t.org_id,
      targetId: t.id,
      reason: autoDisableReason(t.failing_since ?? cutoff),
    }));
    const values = sql.join(
      disabled.map((d) => sql`(${d.orgId}::text, ${d.targetId}::text, ${d.reason}::text)`),
    );
    await sql`
      update targets t set enabled = false, disabled_reason = v.reason, updated_at = ${now}
      from (values ${values}) as v(org_id, id, reason)
      where t.org_id = v.org_id and t.id = v.id`.execute(tx);
    const failed = await sql<{ target_id: string; n: number }>`
      with failed as (
        update events e set status = 'FAILED', final_reason = v.reason, next_attempt_at = null,
          updated_at = ${now}
        from (values ${values}) as v(org_id, id, reason)
        where e.org_id = v.org_id and e.target_id = v.id and e.status in ('QUEUED', 'RETRYING')
        returning e.target_id
      )
      select target_id, count(*)::int as n from failed group by target_id`.execute(tx);
    const counts = new Map(failed.rows.map((r) => [r.target_id, r.n]));
    return disabled.map((d) => ({ ...d, failedEvents: counts.get(d.targetId) ?? 0 }));
  });
}

/** Live targets the service disabled itself and nobody has enabled (or disabled by hand) since. */
export async function countAutoDisabledTargets(db: Db): Promise<number> {
  const r = await db
    .selectFrom('targets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('deleted_at', 'is', null)
    .where('enabled', '=', false)
    .where('disabled_reason', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
