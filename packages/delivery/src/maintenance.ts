import {
  autoDisableFailingTargets,
  deleteExpiredKeysAndSessions,
  expireMailboxMessages,
  type Db,
} from '@evds/db';
import type { DeliveryMetrics } from '@evds/metrics';
import { createWorker, type Producer, type Redis } from '@evds/queue';
import type { Logger } from '@evds/runtime';
import type { Worker } from 'bullmq';
import { DEFAULT_EVENT_RETENTION, dropPayloads, keepPartitions } from './partitions.ts';
import { resumeRecoveries } from './recovery.ts';
import { sweep } from './sweeper.ts';

export interface MaintenanceOptions {
  db: Db;
  producer: Producer;
  redis: Redis;
  prefix: string;
  logger: Logger;
  sweepIntervalMs: number;
  sweepGraceMs: number;
  maintenanceIntervalMs: number;
  payloadRetentionSeconds: number;
  /** EVENT_RETENTION_SECONDS: whole weekly partitions past it are dropped (absent: 90 days). */
  eventRetentionSeconds?: number;
  /**
   * The billing moves (active -> grace -> suspended, paid -> active). Given only while live billing is
   * enabled (decisions §7); without it the task is not scheduled and its scheduler is removed.
   */
  billing?: { run(now: Date): Promise<unknown> };
  /**
   * Targets that failed every attempt for this long are disabled (AUTO_DISABLE_AFTER_SECONDS); 0 or
   * absent: never. Runs with the 'retention' task (the catalog has no task of its own for it).
   */
  autoDisableAfterSeconds?: number;
  /** Called after auto-disable disabled anything: ingest must refuse those targets at once. */
  onTargetsDisabled?: () => Promise<void>;
  /** Counts the sweeper's re-enqueues (optional). */
  metrics?: Pick<DeliveryMetrics, 'sweeperRequeued'>;
}

export interface Maintenance {
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Maintenance as BullMQ job schedulers, so one replica runs each tick however many are up. The
 * schedulers live in Redis, which may be flushed: they are upserted again on every interval.
 */
export function createMaintenance(o: MaintenanceOptions): Maintenance {
  const autoDisable = async () => {
    const after = o.autoDisableAfterSeconds ?? 0;
    if (after <= 0) return;
    const disabled = await autoDisableFailingTargets(o.db, new Date(), after);
    if (disabled.length === 0) return;
    o.logger.warn(
      { targets: disabled, afterSeconds: after },
      'auto-disabled targets that failed every attempt',
    );
    // The targets are disabled whether or not this works; a failed bump leaves ingest's caches to
    // expire on their own (up to a minute), and a retry of the task would find nothing to disable.
    await o
      .onTargetsDisabled?.()
      .catch((err: unknown) =>
        o.logger.error({ err }, 'could not bump the cache generation; ingest caches may lag up to a minute'),
      );
  };
  const worker: Worker = createWorker(
    'maintenance',
    o.redis,
    o.prefix,
    async ({ task }) => {
      switch (task) {
        case 'sweep': {
          const n = await sweep(o.db, o.producer, o.sweepGraceMs);
          o.metrics?.sweeperRequeued(n);
          if (n > 0) o.logger.warn({ requeued: n }, 'sweeper re-enqueued items without a live job');
          const resumed = await resumeRecoveries(o.db, o.producer, o.sweepGraceMs);
          if (resumed > 0) o.logger.warn({ resumed }, 'sweeper re-added recovery jobs that were lost');
          return;
        }
        case 'retention': {
          const dropped = await dropPayloads(o.db, new Date(Date.now() - o.payloadRetentionSeconds * 1000));
          await deleteExpiredKeysAndSessions(o.db);
          if (dropped > 0) o.logger.info({ dropped }, 'dropped payloads past retention');
          await keepPartitions(o.db, o.logger, o.eventRetentionSeconds ?? DEFAULT_EVENT_RETENTION);
          await autoDisable();
          return;
        }
        case 'mailbox-retention': {
          // Up to 20 batches of 1000 per run; a larger backlog is caught up on the next runs.
          const expired = await expireMailboxMessages(o.db, 1000, 20);
          if (expired > 0) o.logger.info({ expired }, 'mailbox messages past retention expired');
          return;
        }
        case 'billing':
          await o.billing?.run(new Date());
          return;
      }
    },
    { concurrency: 1 },
  );
  worker.on('failed', (_job, err) => o.logger.error({ err }, 'maintenance task failed'));
  const upsert = async () => {
    const q = o.producer.queue('maintenance');
    await q.upsertJobScheduler(
      'sweep',
      { every: o.sweepIntervalMs },
      { name: 'maintenance', data: { task: 'sweep' } },
    );
    await q.upsertJobScheduler(
      'retention',
      { every: o.maintenanceIntervalMs },
      { name: 'maintenance', data: { task: 'retention' } },
    );
    await q.upsertJobScheduler(
      'mailbox-retention',
      { every: o.maintenanceIntervalMs },
      { name: 'maintenance', data: { task: 'mailbox-retention' } },
    );
    if (o.billing)
      await q.upsertJobScheduler(
        'billing',
        { every: o.maintenanceIntervalMs },
        { name: 'maintenance', data: { task: 'billing' } },
      );
    else await q.removeJobScheduler('billing');
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    async start() {
      await upsert();
      timer = setInterval(
        () => {
          upsert().catch((err: unknown) => o.logger.warn({ err }, 'could not upsert maintenance schedulers'));
        },
        Math.min(o.sweepIntervalMs * 4, 60_000),
      );
      timer.unref();
      void worker.run();
    },
    async close() {
      clearInterval(timer);
      await worker.close();
    },
  };
}
