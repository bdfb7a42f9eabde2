import { Queue } from 'bullmq';
import { catalog, defaultJobOptions, type JobData, type JobKind } from './catalog.ts';
import { bullQueueFor } from './layout.ts';
import type { Redis } from './redis.ts';

export interface Producer {
  /** Adds one job (validated against the catalog); a job id that exists already is left as it is. */
  add<K extends JobKind>(
    kind: K,
    jobId: string,
    data: JobData<K>,
    /** `first`: at the head of the waiting list (runs next), for a job that already waited its turn. */
    opts?: { delayMs?: number; first?: boolean },
  ): Promise<void>;
  addBulk<K extends JobKind>(kind: K, jobs: { jobId: string; data: JobData<K> }[]): Promise<void>;
  queue(kind: JobKind): Queue;
  close(): Promise<void>;
}

export function createProducer(redis: Redis, prefix: string): Producer {
  const queues = new Map<JobKind, Queue>();
  const queue = (kind: JobKind): Queue => {
    let q = queues.get(kind);
    if (!q) {
      const bull = bullQueueFor(redis, kind, prefix);
      const created = new Queue(bull.name, {
        connection: redis,
        prefix: bull.prefix,
        defaultJobOptions,
        skipWaitingForReady: true,
      });
      queues.set(kind, created);
      // Connection errors surface as failed calls; without a listener BullMQ prints each reconnect
      // attempt's error to stderr as a raw stack, outside the JSON logs.
      created.on('error', () => undefined);
      // A queue whose first contact with Redis failed (made during an outage) fails every call for
      // good, even once Redis is back: forget it, and the next call makes a new one.
      created.waitUntilReady().catch(() => {
        if (queues.get(kind) === created) queues.delete(kind);
        created.close().catch(() => undefined);
      });
      q = created;
    }
    return q;
  };
  const add: Producer['add'] = async (kind, jobId, data, opts = {}) => {
    const valid = catalog[kind].schema.parse(data);
    await queue(kind).add(kind, valid, {
      jobId,
      ...(opts.delayMs ? { delay: opts.delayMs } : {}),
      ...(opts.first ? { lifo: true } : {}),
    });
  };
  return {
    queue,
    add,
    async addBulk(kind, jobs) {
      if (jobs.length === 0) return;
      // One job is one command; BullMQ's addBulk always builds a pipeline (a transaction).
      const [only] = jobs;
      if (jobs.length === 1 && only) return add(kind, only.jobId, only.data);
      await queue(kind).addBulk(
        jobs.map((j) => ({ name: kind, data: catalog[kind].schema.parse(j.data), opts: { jobId: j.jobId } })),
      );
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
