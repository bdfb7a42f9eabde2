import { createWorker, type Redis } from '@evds/queue';
import type { Logger } from '@evds/runtime';
import type { Job, Worker } from 'bullmq';

/**
 * The BullMQ worker of a delivery queue. A job is one attempt of one item, or the first attempts of a
 * group of items (enqueued together by ingest); the processor bounds the attempts under way, whatever
 * jobs they came in. A job that throws (Postgres away, say) is failed; the sweeper enqueues its items
 * again, so it is only logged here. A group's items all finish before its job does, failed or not.
 */
export function createItemConsumer(
  kind: 'webhook' | 'a2a',
  processItem: (eventId: string, via?: { job: Job; token?: string }) => Promise<void>,
  opts: { redis: Redis; prefix: string; concurrency: number; lockMs: number; logger: Logger },
): Worker {
  const worker = createWorker(
    kind,
    opts.redis,
    opts.prefix,
    async (data, job, token) => {
      if ('eventId' in data) return processItem(data.eventId, { job, token });
      const settled = await Promise.allSettled(data.eventIds.map((id) => processItem(id)));
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
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
