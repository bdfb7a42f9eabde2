// Retention, run by the maintenance 'retention' task (and by the retention benchmark at its simulated
// clock, so the benchmark measures exactly this): payloads past PAYLOAD_RETENTION_SECONDS are dropped;
// the weekly partitions of events, attempts and usage records are made eight weeks ahead and dropped
// whole once past EVENT_RETENTION_SECONDS, with the counters of the days they held; mailbox messages
// (not partitioned: far fewer) older than the same boundary are deleted in batches. Inserts never wait
// on it (repos/partitions.ts says which locks it takes); what each run did is logged.
import {
  compactEventCounts,
  deleteOldMailboxMessages,
  dropExpiredPartitions,
  ensurePartitions,
  pruneAttemptRollups,
  retentionBoundary,
  dropExpiredPayloads,
  type Db,
} from '@evds/db';
import type { Logger } from '@evds/runtime';

export const DEFAULT_EVENT_RETENTION = 90 * 24 * 3600;
const AHEAD_MS = 8 * 7 * 24 * 3600 * 1000;

/**
 * Archived payloads created before `cutoff`, dropped in short statements (1,000 rows each, so ingest
 * never waits long behind one), up to 100 a run: 100,000 a minute keeps up with about 1,600 items/s;
 * a larger backlog is caught up on later runs. Returns how many were dropped.
 */
export async function dropPayloads(db: Db, cutoff: Date): Promise<number> {
  let dropped = 0;
  for (let i = 0, n = 1000; i < 100 && n === 1000; i++) {
    n = await dropExpiredPayloads(db, cutoff, 1000);
    dropped += n;
  }
  return dropped;
}

export interface PartitionUpkeep {
  made: string[];
  dropped: string[];
  prunedRollupRows: number;
  foldedCounterRows: number;
  deletedMailboxMessages: number;
  ms: number;
}

/** One run of record retention at `now`; what it did is logged when it did anything, and returned. */
export async function keepPartitions(
  db: Db,
  logger: Logger,
  retentionSeconds: number,
  now = new Date(),
): Promise<PartitionUpkeep> {
  const started = performance.now();
  const made = await ensurePartitions(db, now, new Date(now.getTime() + AHEAD_MS));
  const dropped = await dropExpiredPartitions(db, now, retentionSeconds);
  const boundary = retentionBoundary(now, retentionSeconds);
  const pruned = await pruneAttemptRollups(db, boundary);
  // Buckets that ended an hour ago get few writes: one row each from then on.
  const folded = await compactEventCounts(db, new Date(now.getTime() - 3600_000));
  // Up to 20 batches of 1000 per run; a larger backlog is caught up on the next runs.
  const messages = await deleteOldMailboxMessages(db, boundary, 1000, 20);
  const upkeep: PartitionUpkeep = {
    made,
    dropped,
    prunedRollupRows: pruned,
    foldedCounterRows: folded,
    deletedMailboxMessages: messages,
    ms: Math.round(performance.now() - started),
  };
  if (made.length + dropped.length + pruned + messages + folded > 0)
    logger.info(upkeep, 'event partitions kept');
  return upkeep;
}
