import { Worker, type Job } from 'bullmq';
import { catalog, type JobData, type JobKind } from './catalog.ts';
import { bullQueueFor } from './layout.ts';
import type { Redis } from './redis.ts';

export { DelayedError, UnrecoverableError } from 'bullmq';
export type { Job } from 'bullmq';

export interface WorkerOptions {
  concurrency: number;
  /** Lock on an active job; a job whose worker died is taken over once its lock lapses. */
  lockMs?: number;
  /** Called for a job whose data does not match the catalog (it is failed, never retried). */
  onInvalid?: (job: Job, err: Error) => void;
}

/** A BullMQ worker for one queue of the catalog; each job's data is validated before the handler sees it. */
export function createWorker<K extends JobKind>(
  kind: K,
  redis: Redis,
  prefix: string,
  /** `token` is the job's lock token, for moving the job itself (e.g. back to delayed). */
  handler: (data: JobData<K>, job: Job, token: string | undefined) => Promise<void>,
  opts: WorkerOptions,
): Worker {
  const bull = bullQueueFor(redis, kind, prefix);
  return new Worker(
    bull.name,
    async (job: Job, token?: string) => {
      const parsed = catalog[kind].schema.safeParse(job.data);
      if (!parsed.success) {
        const err = new Error(`invalid ${kind} job: ${parsed.error.message}`);
        opts.onInvalid?.(job, err);
        throw err;
      }
      await handler(parsed.data as JobData<K>, job, token);
    },
    {
      connection: redis,
      prefix: bull.prefix,
      concurrency: opts.concurrency,
      autorun: false,
      ...(opts.lockMs
        ? { lockDuration: opts.lockMs, stalledInterval: Math.max(500, Math.floor(opts.lockMs / 2)) }
        : {}),
    },
  );
}
