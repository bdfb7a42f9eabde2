import type { JobKind } from './catalog.ts';
import { bullQueueName } from './layout.ts';
import type { Producer } from './producer.ts';
import type { Redis } from './redis.ts';

/**
 * The Redis list of a queue's waiting jobs (ready, not yet taken by a worker). BullMQ pushes new jobs
 * on the left and workers take them from the right, so the oldest waiting job is the last element.
 * The Kubernetes autoscalers read this list (infra/k8s), so its name is part of the deployment: on a
 * cluster the queue name in it is hash-tagged (`evds:bull:{webhook-delivery}:wait`).
 */
export const waitListKey = (prefix: string, kind: JobKind, clustered = false): string => {
  const bull = bullQueueName(kind, prefix, clustered);
  return `${bull.prefix}:${bull.name}:wait`;
};

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  oldestWaitingAgeSeconds: number;
}

/**
 * Counts by state and the age of the oldest waiting job: three cheap Redis calls (the counts script,
 * LINDEX, HMGET), whatever the queue's length.
 */
export async function queueCounts(
  producer: Producer,
  redis: Redis,
  kind: JobKind,
  now = Date.now(),
): Promise<QueueCounts> {
  const queue = producer.queue(kind);
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
  let oldestWaitingAgeSeconds = 0;
  const oldest = await redis.lindex(queue.toKey('wait'), -1);
  if (oldest) {
    // A job is ready `delay` ms after it was added (0 for most; retries and re-promoted jobs wait first).
    const [timestamp, delay] = await redis.hmget(queue.toKey(oldest), 'timestamp', 'delay');
    const readyAt = Number(timestamp) + (Number(delay) || 0);
    if (Number.isFinite(readyAt) && readyAt > 0)
      oldestWaitingAgeSeconds = Math.max(0, (now - readyAt) / 1000);
  }
  return {
    waiting: counts.waiting ?? 0,
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
    oldestWaitingAgeSeconds,
  };
}
