import type { Migration, MigrationProvider } from 'kysely/migration';
import * as initial from './2026-11-21T0800-initial.ts';
import * as mailboxOrgIndex from './2026-11-21T0900-mailbox-org-index.ts';
import * as usageMonthly from './2026-11-21T1000-usage-monthly.ts';
import * as attemptRetryAfter from './2026-11-24T0900-attempt-retry-after.ts';
import * as targetHealth from './2026-11-24T1000-target-health.ts';
import * as recoveries from './2026-11-24T1100-recoveries.ts';
import * as recoveryOneRunning from './2026-11-25T0900-recovery-one-running.ts';
import * as testItems from './2026-11-26T0900-test-items.ts';
import * as partitionedEvents from './2026-11-27T1000-partitioned-events.ts';
import * as eventCounts from './2026-11-27T1030-event-counts.ts';
import * as attemptRollups from './2026-11-27T1100-attempt-rollups.ts';
import * as eventCountsUpdateUnjoined from './2026-11-28T0900-event-counts-update-unjoined.ts';
import * as eventJobGroups from './2026-11-29T0900-event-job-groups.ts';

/** Every migration, registered explicitly (no directory scanning), in the order they run. */
const migrations: Record<string, Migration> = {
  '2026-11-21T0800-initial': initial,
  '2026-11-21T0900-mailbox-org-index': mailboxOrgIndex,
  '2026-11-21T1000-usage-monthly': usageMonthly,
  '2026-11-24T0900-attempt-retry-after': attemptRetryAfter,
  '2026-11-24T1000-target-health': targetHealth,
  '2026-11-24T1100-recoveries': recoveries,
  '2026-11-25T0900-recovery-one-running': recoveryOneRunning,
  '2026-11-26T0900-test-items': testItems,
  '2026-11-27T1000-partitioned-events': partitionedEvents,
  '2026-11-27T1030-event-counts': eventCounts,
  '2026-11-27T1100-attempt-rollups': attemptRollups,
  '2026-11-28T0900-event-counts-update-unjoined': eventCountsUpdateUnjoined,
  '2026-11-29T0900-event-job-groups': eventJobGroups,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

export const migrationNames = Object.keys(migrations);
