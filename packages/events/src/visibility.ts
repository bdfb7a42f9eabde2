// Which events a read may show: those created from the record-retention boundary on. Older ones may
// still sit in a partition not yet dropped, but no list, total, detail, replay or stats shows them.
import { retentionBoundary, type Db } from '@evds/db';

export interface EventReadDeps {
  db: Db;
  /** A streaming replica for the list, detail and stats reads (DATABASE_READ_URL); the primary without one. */
  readDb?: Db;
  /** EVENT_RETENTION_SECONDS. */
  eventRetentionSeconds: number;
}

export const visibleFrom = (deps: Pick<EventReadDeps, 'eventRetentionSeconds'>): Date =>
  retentionBoundary(new Date(), deps.eventRetentionSeconds);
