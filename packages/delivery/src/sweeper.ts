import { listOverdue, type Db } from '@evds/db';
import { attemptJobId, type Producer } from '@evds/queue';

const BATCH = 500;
const MAX_PER_SWEEP = 20_000;
/** Job states that mean "nothing will run this job": it must be added again. */
const DEAD_STATES = new Set(['failed', 'completed', 'unknown']);

/**
 * Re-enqueues pending items (QUEUED/RETRYING) overdue by more than `graceMs` whose job is missing or
 * dead: after a Redis flush, a crash between commit and enqueue, or a job failed by a crashed worker.
 * A job that is waiting, delayed or active is left alone. Returns how many were re-enqueued.
 */
export async function sweep(db: Db, producer: Producer, graceMs: number): Promise<number> {
  const before = new Date(Date.now() - graceMs);
  let cursor: { at: Date; id: string } | undefined;
  let requeued = 0;
  for (let seen = 0; seen < MAX_PER_SWEEP; seen += BATCH) {
    const due = await listOverdue(db, before, BATCH, cursor);
    if (due.length === 0) break;
    const last = due[due.length - 1];
    if (last) cursor = { at: last.next_attempt_at, id: last.id };
    await Promise.all(
      due.map(async (item) => {
        const kind = item.target_kind === 'a2a' ? 'a2a' : 'webhook';
        const jobId = attemptJobId(item.id, item.attempt_count);
        const queue = producer.queue(kind);
        const state = await queue.getJobState(jobId);
        if (!DEAD_STATES.has(state)) return;
        // 'unknown' may still leave the job's hash behind (a partial flush), which would make the add a no-op.
        await queue.remove(jobId);
        await producer.add(kind, jobId, { eventId: item.id });
        requeued++;
      }),
    );
    if (due.length < BATCH) break;
  }
  return requeued;
}
