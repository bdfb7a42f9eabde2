import { createWorker, type Redis } from '@evds/queue';
import type { Logger } from '@evds/runtime';
import type { Job, Worker } from 'bullmq';

/**
 * The BullMQ worker of a delivery queue: each job is one attempt of one item. A job that throws
 * (Postgres away, say) is failed; the sweeper enqueues its item again, so it is only logged here.
 */
export function createItemConsumer(
  kind: 'webhook' | 'a2a',
  processItem: (eventId: string, job: Job, token: string | undefined) => Promise<void>,
  opts: { redis: Redis; prefix: string; concurrency: number; lockMs: number; logger: Logger },
): Worker {
  const worker = createWorker(
    kind,
    opts.redis,
    opts.prefix,
    ({ eventId }, job, token) => processItem(eventId, job, token),
    {
      concurrency: opts.concurrency,
      lockMs: opts.lockMs,
    },
  );
  worker.on('failed', (job, err) =>
    opts.logger.error({ err, jobId: job?.id }, `${kind} job failed; the sweeper will retry it`),
  );
  worker.on('error', (err) => opts.logger.warn({ err }, `${kind} worker error`));
  return worker;
}
