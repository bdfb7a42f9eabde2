// Record retention, run with the maintenance 'retention' task: the weekly partitions of events,
// attempts and usage records are made AHEAD weeks in advance and dropped whole once past
// EVENT_RETENTION_SECONDS, and the counters of the days they held go with them; mailbox messages
// (not partitioned: far fewer) older than the same boundary are deleted in batches. Inserts never wait
// on it (repos/partitions.ts says which locks it takes); how long each step took is logged.
import {
  compactEventCounts,
  deleteOldMailboxMessages,
  dropExpiredPartitions,
  ensurePartitions,
  pruneAttemptRollups,
  retentionBoundary,
  type Db,
} from '@evds/db';
import type { Logger } from '@evds/runtime';

export const DEFAULT_EVENT_RETENTION = 90 * 24 * 3600;
const AHEAD_MS = 8 * 7 * 24 * 3600 * 1000;

export async function keepPartitions(
  db: Db,
  logger: Logger,
  retentionSeconds: number,
  now = new Date(),
): Promise<void> {
  const started = performance.now();
  const made = await ensurePartitions(db, now, new Date(now.getTime() + AHEAD_MS));
  const dropped = await dropExpiredPartitions(db, now, retentionSeconds);
  const boundary = retentionBoundary(now, retentionSeconds);
  const pruned = await pruneAttemptRollups(db, boundary);
  // Buckets that ended an hour ago get few writes: one row each from then on.
  const folded = await compactEventCounts(db, new Date(now.getTime() - 3600_000));
  // Up to 20 batches of 1000 per run; a larger backlog is caught up on the next runs.
  const messages = await deleteOldMailboxMessages(db, boundary, 1000, 20);
  if (made.length + dropped.length + pruned + messages + folded > 0)
    logger.info(
      {
        made,
        dropped,
        prunedRollupRows: pruned,
        foldedCounterRows: folded,
        deletedMailboxMessages: messages,
        ms: Math.round(performance.now() - started),
      },
      'event partitions kept',
    );
}
