import { randomBytes } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';

const itemId = z.string().regex(/^[0-9a-f]{32}$/);

/** Items one delivery job carries at most (ingest puts the items of one commit in one job). */
export const JOB_GROUP_MAX = 20;

/**
 * A delivery job: one attempt of one item, or the first attempts of items committed together (a
 * group: one job instead of one each, so the queue's cost is shared; see jobGroupId).
 */
const deliveryJob = z.union([
  z.object({ eventId: itemId }),
  z.object({ eventIds: z.array(itemId).min(2).max(JOB_GROUP_MAX) }),
]);

/**
 * Every queue, the shape of its jobs and their default options. Jobs carry ids, not payloads:
 * Postgres holds the item; the job only says which one to work on now.
 */
export const catalog = {
  webhook: { queue: 'webhook-delivery', schema: deliveryJob },
  a2a: { queue: 'a2a-delivery', schema: deliveryJob },
  /** One recovery (bulk replay); the job id is the recovery id, the job moves itself on batch by batch. */
  recovery: {
    queue: 'recovery',
    schema: z.object({ recoveryId: z.string().regex(/^[0-9a-f]{32}$/) }),
  },
  maintenance: {
    queue: 'maintenance',
    schema: z.object({ task: z.enum(['sweep', 'retention', 'mailbox-retention', 'billing']) }),
  },
} as const;

export type JobKind = keyof typeof catalog;
export type JobData<K extends JobKind> = z.output<(typeof catalog)[K]['schema']>;

/**
 * Finished jobs are removed so the same job id can be added again (a replayed sweep, a retry);
 * failed ones are kept a while for inspection. Retries are scheduled by the worker, not by BullMQ,
 * because Postgres (not Redis) holds the attempt count.
 */
export const defaultJobOptions: JobsOptions = {
  attempts: 1,
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

/**
 * The job id of an item's next attempt: the item id for the first one, then one id per retry.
 * Adding a job whose id already exists is a no-op, so any number of producers (ingest, worker,
 * sweeper) may add the same attempt safely.
 */
export const attemptJobId = (eventId: string, attemptsMade: number): string =>
  attemptsMade === 0 ? eventId : `${eventId}-r${attemptsMade}`;

/**
 * The job id of a group: its number, which each of its items keeps in events.job_group so the sweeper
 * can tell a waiting group's items from lost ones. A group's items still answer to their own attempt
 * job id too: an item held back by flow control leaves the group as a job of its own under that id.
 */
export const jobGroupId = (group: number): string => `g${group}`;

/** A new group number: 53 random bits, an exact JavaScript number and a Postgres bigint. */
export const newJobGroup = (): number => Number(randomBytes(8).readBigUInt64BE() >> 11n);
