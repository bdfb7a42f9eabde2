import { listOverdue, stillDue, type Db, type DueItem } from '@evds/db';
import { attemptJobId, jobGroupId, type Producer } from '@evds/queue';

const BATCH = 500;
const MAX_PER_SWEEP = 20_000;
/** Job states that mean "nothing will run this job": it must be added again. */
export const DEAD_STATES = new Set(['failed', 'completed', 'unknown']);

const kindOf = (item: DueItem) => (item.target_kind === 'a2a' ? 'a2a' : 'webhook');

/**
 * Re-enqueues pending items (QUEUED/RETRYING) overdue by more than `graceMs` whose job is missing or
 * dead: after a Redis flush, a crash between commit and enqueue, or a job failed by a crashed worker.
 * Returns how many were re-enqueued.
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
    requeued += await requeueDead(db, producer, due);
    if (due.length < BATCH) break;
  }
  return requeued;
}

/**
 * The jobs that may carry an item's next attempt: its own, and for a first attempt enqueued in a group,
 * the group's (the item leaves it for a job of its own when flow control holds it back).
 */
const jobsOf = (item: DueItem) =>
  item.attempt_count === 0 && item.job_group !== null
    ? [attemptJobId(item.id, 0), jobGroupId(item.job_group)]
    : [attemptJobId(item.id, item.attempt_count)];

/**
 * Re-enqueues those of `due` whose jobs are all dead. An item with a job waiting, delayed or active is
 * left alone, and so is an item that an attempt moved on after `due` was read: Postgres is read again
 * after the job states, since a job that completed meanwhile has already recorded its attempt.
 */
export async function requeueDead(db: Db, producer: Producer, due: DueItem[]): Promise<number> {
  // The items of one group share its job: its state is read once.
  const states = new Map<string, Promise<string>>();
  const stateOf = (kind: 'webhook' | 'a2a', jobId: string) => {
    const key = `${kind}:${jobId}`;
    let state = states.get(key);
    if (!state) states.set(key, (state = producer.queue(kind).getJobState(jobId)));
    return state;
  };
  const dead = (
    await Promise.all(
      due.map(async (item) => {
        const found = await Promise.all(jobsOf(item).map((id) => stateOf(kindOf(item), id)));
        return found.every((state) => DEAD_STATES.has(state)) ? [item] : [];
      }),
    )
  ).flat();
  const unmoved = await stillDue(db, dead);
  const requeue = dead.filter((item) => unmoved.has(item.id));
  await Promise.all(
    requeue.map(async (item) => {
      const kind = kindOf(item);
      const jobId = attemptJobId(item.id, item.attempt_count);
      // 'unknown' may still leave the job's hash behind (a partial flush), which would make the add a no-op.
      await producer.queue(kind).remove(jobId);
      await producer.add(kind, jobId, { eventId: item.id });
    }),
  );
  return requeue.length;
}
