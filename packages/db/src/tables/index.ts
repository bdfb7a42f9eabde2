import type { ApiKeysTable } from './api-keys.ts';
import type { AttemptRollupsTable } from './attempt-rollups.ts';
import type { DeliveryAttemptsTable } from './delivery-attempts.ts';
import type { EventsTable } from './events.ts';
import type { IdempotencyKeysTable } from './idempotency-keys.ts';
import type { MailboxMessagesTable } from './mailbox-messages.ts';
import type { OrganizationsTable } from './organizations.ts';
import type { RecoveriesTable, RecoveryReplaysTable } from './recoveries.ts';
import type { SessionsTable } from './sessions.ts';
import type { TargetsTable } from './targets.ts';
import type { UsageMonthlyTable } from './usage-monthly.ts';
import type { UsageRecordsTable } from './usage-records.ts';
import type { UsersTable } from './users.ts';

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  targets: TargetsTable;
  events: EventsTable;
  delivery_attempts: DeliveryAttemptsTable;
  attempt_rollups: AttemptRollupsTable;
  mailbox_messages: MailboxMessagesTable;
  usage_records: UsageRecordsTable;
  usage_monthly: UsageMonthlyTable;
  idempotency_keys: IdempotencyKeysTable;
  recoveries: RecoveriesTable;
  recovery_replays: RecoveryReplaysTable;
}

export type * from './api-keys.ts';
export type * from './attempt-rollups.ts';
export type * from './delivery-attempts.ts';
export type * from './events.ts';
export type * from './idempotency-keys.ts';
export type * from './mailbox-messages.ts';
export type * from './organizations.ts';
export type * from './recoveries.ts';
export type * from './sessions.ts';
export type * from './targets.ts';
export type * from './usage-monthly.ts';
export type * from './usage-records.ts';
export type * from './users.ts';
