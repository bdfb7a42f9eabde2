import type { Generated, Insertable, Selectable } from 'kysely';
import type { EventStatus } from '@evds/domain';

export type RecoveryState = 'running' | 'completed' | 'failed';

/** A bulk replay of one target's events created in [since, until) with one of `statuses`. */
export interface RecoveriesTable {
  id: string;
  org_id: string;
  target_id: string;
  since: Date;
  until: Date;
  statuses: EventStatus[];
  state: RecoveryState;
  /** How many events matched when the recovery was created. */
  matched: number;
  replayed: Generated<number>;
  /** Matched events left alone because their payload was past retention. */
  skipped: Generated<number>;
  cursor_created_at: Date | null;
  cursor_id: string | null;
  failure_reason: string | null;
  request_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  finished_at: Date | null;
}
export type Recovery = Selectable<RecoveriesTable>;
export type NewRecovery = Insertable<RecoveriesTable>;

/** One claim per original replayed by a running recovery (each original at most once); removed when it ends. */
export interface RecoveryReplaysTable {
  recovery_id: string;
  source_event_id: string;
}
