import type { Generated, Insertable, Selectable } from 'kysely';
import type { MailboxState } from '@evds/domain';

export interface MailboxMessagesTable {
  id: string;
  org_id: string;
  mailbox_id: string;
  state: MailboxState;
  event_type: string | null;
  correlation_id: string | null;
  payload: Buffer | null;
  payload_size: number;
  created_at: Generated<Date>;
  expires_at: Date;
  claimed_at: Date | null;
  claimed_by_key_id: string | null;
  lease_expires_at: Date | null;
  acknowledged_at: Date | null;
  /** Sent by POST /api/v1/targets/:id/test: a message like any other, but no usage record. */
  test: Generated<boolean>;
}
export type MailboxMessage = Selectable<MailboxMessagesTable>;
export type NewMailboxMessage = Insertable<MailboxMessagesTable>;
