// The weekly-partition maintenance of @evds/db (ensurePartitions, dropExpiredPartitions), looked up at
// run time: on a schema whose event tables are not partitioned yet they are absent, and the scale
// benchmarks still run (nothing to create before seeding, no whole partitions to drop).
import * as dbModule from '@evds/db';
import type { Db } from '@evds/db';

export interface PartitionMaintenance {
  ensurePartitions: (db: Db, from: Date, to: Date) => Promise<string[]>;
  dropExpiredPartitions: (db: Db, now: Date, retentionSeconds: number) => Promise<string[]>;
}

const found = dbModule as unknown as Partial<PartitionMaintenance>;

/** Both functions, or null when this schema has neither (the event tables are not partitioned). */
export const partitionMaintenance: PartitionMaintenance | null =
  typeof found.ensurePartitions === 'function' && typeof found.dropExpiredPartitions === 'function'
    ? { ensurePartitions: found.ensurePartitions, dropExpiredPartitions: found.dropExpiredPartitions }
    : null;

/** Creates the weekly partitions covering [from, to) when the schema has them; their names. */
export const ensurePartitionsIfAny = (db: Db, from: Date, to: Date): Promise<string[]> =>
  partitionMaintenance ? partitionMaintenance.ensurePartitions(db, from, to) : Promise.resolve([]);

const prune = (dbModule as unknown as { pruneAttemptRollups?: (db: Db, before: Date) => Promise<number> })
  .pruneAttemptRollups;
/** Deletes the attempt rollups of buckets before `before` when the schema has them; how many. */
export const pruneAttemptRollupsIfAny = (db: Db, before: Date): Promise<number> =>
  typeof prune === 'function' ? prune(db, before) : Promise.resolve(0);

/** 00:00 UTC of the day of now - retention: the first instant record retention keeps. */
export const retentionBoundary = (now: Date, retentionSeconds: number): Date => {
  const t = new Date(now.getTime() - retentionSeconds * 1000);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
};

/** Monday 00:00 UTC of the week holding `t` (where a weekly partition starts). */
export const weekStart = (t: Date): Date => {
  const day = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * 86_400_000);
};
