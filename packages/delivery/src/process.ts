import {
  failWithoutAttempt,
  loadDeliveryWorkMany,
  noteAttemptOutcomes,
  recordAttempts,
  type AttemptOutcome,
  type AttemptRecord,
  type Db,
  type DeliveryWork,
} from '@evds/db';
import { newAttemptId } from '@evds/domain';
import type { DeliveryMetrics } from '@evds/metrics';
import { attemptJobId, type Job, type JobKind, type Producer } from '@evds/queue';
import { createBatcher, type Logger } from '@evds/runtime';
import pLimit from 'p-limit';
import type { SecretBox } from '@evds/secrets';
import type { Admission } from './admission.ts';
import { retryAfterMs, retryDelay } from './retry-after.ts';
import { RESPONSE_BODY_KEEP, type SendResult } from './send.ts';

/**
 * What a sender reports. `delivered` overrides the 2xx rule where the answer's body decides (an a2a
 * agent's 200 must carry a task or a message); webhook senders leave it unset.
 */
export type SenderResult = SendResult & {
  delivered?: boolean;
  a2aTaskId?: string | null;
  a2aTaskState?: string | null;
};

/** Sends one item to its target: the only part that differs between webhook and a2a delivery. */
export type Sender = (
  work: DeliveryWork & { payload: Buffer; url: string },
  secrets: SecretBox,
) => Promise<SenderResult>;

export interface ProcessorDeps {
  db: Db;
  producer: Producer;
  secrets: SecretBox;
  logger: Logger;
  /** Delay before retry n (1-based) is retryDelaysMs[n-1], the last one repeating. */
  retryDelaysMs: number[];
  queue: JobKind;
  send: Sender;
  /** Attempts by outcome, latency, retries (optional: unit tests need not pass it). */
  metrics?: DeliveryMetrics;
  /** Per-target and per-organization caps and circuits (optional: unit tests need not pass it). */
  admission?: Admission;
  /** Attempts under way at once (DELIVERY_CONCURRENCY); unbounded if unset. */
  concurrency?: number;
}

/**
 * How long an attempt record that finds no record batch under way waits for others (ms). The answer
 * is in and the slot is free by then, so no delivery waits on it; the attempt shows in the log that
 * much later. At a steady 500 items/s it made record batches of about 8 items instead of 3, and
 * Postgres spent 15-20% less CPU per item (bench/run.ts, end to end). Under load record batches run
 * back to back, so it never applies.
 */
const RECORD_LINGER_MS = 10;

const isSuccess = (r: SendResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/**
 * One attempt of one item. Postgres decides: an item that is no longer pending is skipped (a duplicate
 * job), one whose target is gone ends FAILED, otherwise the attempt is made, logged and the item moved.
 */
export function createProcessor(deps: ProcessorDeps) {
  // Concurrent jobs share their reads and their attempt writes (one statement each). One run at a time:
  // the jobs that finish while it is under way go together in the next, so runs grow with load.
  const batching = { maxBatch: 100, maxInFlight: 1 };
  const loads = createBatcher<string, DeliveryWork | undefined>(async (ids) => {
    const rows = new Map((await loadDeliveryWorkMany(deps.db, ids)).map((w) => [w.id, w]));
    return ids.map((id) => rows.get(id));
  }, batching);
  // The targets' health follows each batch of attempts (one statement, writing only rows that change),
  // alongside the attempt records rather than after them; a failure there is logged, never a reason to
  // make the attempts again.
  const records = createBatcher<AttemptRecord, boolean>(
    async (rs) => {
      const [moved] = await Promise.all([
        recordAttempts(deps.db, rs),
        noteAttemptOutcomes(
          deps.db,
          rs.map((r) => ({
            targetId: r.attempt.target_id,
            at: r.attempt.attempted_at,
            ok: r.outcome.status === 'DELIVERED',
          })),
        ).catch((err: unknown) => deps.logger.warn({ err }, 'could not note target health')),
      ]);
      return moved;
    },
    { ...batching, lingerMs: RECORD_LINGER_MS },
  );

  // Attempts under way at once, from the load to the answer. Recording follows outside the bound: the
  // next attempt starts while this one is written, in a batch with its neighbours.
  const slots = pLimit(deps.concurrency ?? Number.POSITIVE_INFINITY);

  /**
   * `via` is the item's own job (and its lock token); without it the item came in a group, which
   * carries first attempts only: an item already attempted is left to its own retry job.
   */
  return async function processItem(eventId: string, via?: { job: Job; token?: string }): Promise<void> {
    const made = await slots(() => attempt(eventId, via));
    if (!made) return;
    const { work, attemptedAt, result, outcome } = made;
    const [recorded] = await Promise.allSettled([
      record(work, attemptedAt, result, outcome),
      deps.admission?.leave(work, via?.job, outcome.status === 'DELIVERED' ? 'ok' : 'fail'),
    ]);
    if (recorded.status === 'rejected') throw recorded.reason;
  };

  /** Loads the item and, unless it is done, undeliverable or held back, sends it. */
  async function attempt(eventId: string, via: { job: Job; token?: string } | undefined) {
    const work = await loads.submit(eventId);
    if (!work || (work.status !== 'QUEUED' && work.status !== 'RETRYING')) return;
    if (!via && work.attempt_count > 0) return;
    const { job, token } = via ?? {};
    const unfixable = work.deleted_at
      ? 'target deleted'
      : !work.enabled
        ? 'target disabled'
        : work.payload === null
          ? 'payload no longer stored'
          : work.url === null
            ? 'target has no delivery URL'
            : undefined;
    if (unfixable || work.payload === null || work.url === null) {
      await failWithoutAttempt(deps.db, eventId, unfixable ?? 'undeliverable');
      deps.metrics?.failedWithoutAttempt(deps.queue);
      return;
    }

    if (deps.admission && !(await deps.admission.enter(work, job, token))) return;
    const attemptedAt = new Date();
    const result = await deps
      .send({ ...work, payload: work.payload, url: work.url }, deps.secrets)
      .catch(async (err: unknown) => {
        await deps.admission?.leave(work, job, 'none');
        throw err;
      });
    // The target's slot is free once its answer is in: it is handed on while the attempt is recorded.
    // The payload is not kept for that.
    const outcome = decide(result, work.attempt_count + 1, work.max_retries, deps.retryDelaysMs);
    return { work: { ...work, payload: null }, attemptedAt, result, outcome };
  }

  async function record(
    work: DeliveryWork,
    attemptedAt: Date,
    result: SenderResult,
    outcome: AttemptOutcome,
  ) {
    const eventId = work.id;
    const attemptNumber = work.attempt_count + 1;
    const moved = await records.submit({
      attempt: {
        id: newAttemptId(),
        event_id: work.id,
        org_id: work.org_id,
        target_id: work.target_id,
        attempt_number: attemptNumber,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        attempted_at: attemptedAt,
        response_body: result.responseBody?.slice(0, RESPONSE_BODY_KEEP) ?? null,
        error: result.error,
        a2a_task_id: result.a2aTaskId ?? null,
        a2a_task_state: result.a2aTaskState ?? null,
        retry_after: result.retryAfter ?? null,
        next_attempt_at: outcome.status === 'RETRYING' ? outcome.nextAttemptAt : null,
      },
      expectedAttemptCount: work.attempt_count,
      eventCreatedAt: work.created_at,
      outcome,
    });
    deps.metrics?.attempt(deps.queue, outcome.status, result.durationMs / 1000, moved);
    deps.logger[outcome.status === 'DELIVERED' ? 'debug' : 'info'](
      {
        eventId,
        requestId: work.request_id,
        attempt: attemptNumber,
        status: result.statusCode,
        outcome: outcome.status,
        error: result.error ?? undefined,
      },
      'delivery attempt',
    );
    if (moved && outcome.status === 'RETRYING') {
      deps.metrics?.retryScheduled(deps.queue);
      // A failure to add is not lost: the sweeper re-enqueues RETRYING items that are overdue.
      await deps.producer
        .add(
          deps.queue,
          attemptJobId(work.id, attemptNumber),
          { eventId: work.id },
          { delayMs: outcome.nextAttemptAt.getTime() - Date.now() },
        )
        .catch((err: unknown) =>
          deps.logger.warn({ err, eventId }, 'could not schedule retry; the sweeper will'),
        );
    }
  }
}

export function decide(
  result: SendResult & { delivered?: boolean },
  attemptNumber: number,
  maxRetries: number,
  delays: number[],
): AttemptOutcome {
  if (result.delivered ?? isSuccess(result)) return { status: 'DELIVERED' };
  if (result.refused)
    return { status: 'FAILED', reason: result.error ?? 'address refused by the network policy' };
  if (attemptNumber > maxRetries) return { status: 'EXPIRED', reason: `${attemptNumber} attempts failed` };
  const now = Date.now();
  const scheduled = delays[Math.min(attemptNumber, delays.length) - 1] ?? 60_000;
  const delay = retryDelay(scheduled, retryAfterMs(result.retryAfter, now), Math.max(scheduled, ...delays));
  return { status: 'RETRYING', nextAttemptAt: new Date(now + delay) };
}
