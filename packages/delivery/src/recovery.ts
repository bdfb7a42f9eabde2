import { listIdleRecoveries, runRecoveryBatch, type Db, type RecoveryBatch } from '@evds/db';
import { newId } from '@evds/domain';
import { createWorker, type Producer, type Redis } from '@evds/queue';
import type { Logger } from '@evds/runtime';
import { DelayedError, type Job, type Worker } from 'bullmq';
import { DEAD_STATES } from './sweeper.ts';

/** The most events one batch (one transaction) replays. */
export const RECOVERY_BATCH = 100;

export interface RecoveryOptions {
  db: Db;
  producer: Producer;
  logger: Logger;
  /** Events a recovery replays per second (RECOVERY_RATE_PER_SECOND). */
  ratePerSecond: number;
}

/** Enqueues a batch's replays as ingest does (job id = event id); a failure is left to the sweeper. */
async function enqueue(o: RecoveryOptions, replays: RecoveryBatch['replays']): Promise<void> {
  const jobs = (kind: 'webhook' | 'a2a') =>
    replays
      .filter((r) => (r.kind === 'a2a' ? 'a2a' : 'webhook') === kind)
      .map((r) => ({ jobId: r.id, data: { eventId: r.id } }));
  await Promise.all([
    o.producer.addBulk('webhook', jobs('webhook')),
    o.producer.addBulk('a2a', jobs('a2a')),
  ]).catch((err: unknown) => o.logger.warn({ err }, 'could not enqueue recovered events; the sweeper will'));
}

/**
 * One step of a recovery job: one batch, then the job puts itself back as delayed until the rate allows
 * the next one. Stepping (rather than looping inside one run) keeps a graceful stop short and lets a
 * killed worker's job be taken over between batches; Postgres holds the cursor, so any step may be
 * repeated. The job completes once the recovery is no longer running.
 */
export function createRecoveryStep(o: RecoveryOptions): (recoveryId: string, job: Job) => Promise<void> {
  const batch = Math.max(1, Math.min(RECOVERY_BATCH, o.ratePerSecond));
  return async (recoveryId, job) => {
    const started = Date.now();
    const r = await runRecoveryBatch(o.db, recoveryId, batch, newId);
    await enqueue(o, r.replays);
    if (r.state !== 'running') {
      if (r.state !== 'gone') o.logger.info({ recoveryId, state: r.state }, 'recovery finished');
      return;
    }
    const next = started + Math.ceil((batch * 1000) / o.ratePerSecond);
    await job.moveToDelayed(Math.max(next, Date.now()), job.token);
    throw new DelayedError();
  };
}

/** The BullMQ worker of the recovery queue; a failed job is logged, the sweep adds it again. */
export function createRecoveryWorker(
  o: RecoveryOptions & { redis: Redis; prefix: string; lockMs: number; concurrency?: number },
): Worker {
  const step = createRecoveryStep(o);
  const worker = createWorker('recovery', o.redis, o.prefix, ({ recoveryId }, job) => step(recoveryId, job), {
    concurrency: o.concurrency ?? 2,
    lockMs: o.lockMs,
  });
  worker.on('failed', (job, err) =>
    o.logger.error({ err, jobId: job?.id }, 'recovery job failed; the sweep will add it again'),
  );
  worker.on('error', (err) => o.logger.warn({ err }, 'recovery worker error'));
  return worker;
}

/**
 * Adds the job again for each running recovery that has not moved for `idleMs` and whose job is gone
 * (Redis flushed) or dead (failed, e.g. Postgres was away). Cheap: one indexed read of running
 * recoveries, then one job state per idle one. Returns how many were added.
 */
export async function resumeRecoveries(db: Db, producer: Producer, idleMs: number): Promise<number> {
  const idle = await listIdleRecoveries(db, new Date(Date.now() - idleMs), 100);
  const queue = producer.queue('recovery');
  let added = 0;
  for (const id of idle) {
    if (!DEAD_STATES.has(await queue.getJobState(id))) continue;
    // 'unknown' may still leave the job's hash behind (a partial flush), which would make the add a no-op.
    await queue.remove(id);
    await producer.add('recovery', id, { recoveryId: id });
    added++;
  }
  return added;
}
