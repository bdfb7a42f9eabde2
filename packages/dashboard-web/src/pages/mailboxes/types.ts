// The mailbox message record as packages/mailbox/src/views.ts shapes it (Unix seconds).

export const messageStates = ['UNREAD', 'CLAIMED', 'ACKNOWLEDGED', 'EXPIRED'] as const;
export type MessageState = (typeof messageStates)[number];

export interface MailboxMessage {
  id: string;
  mailbox_id: string;
  /** Computed when read: a lapsed lease shows UNREAD again, a message past retention EXPIRED. */
  state: MessageState;
  event_type: string | null;
  correlation_id: string | null;
  /** Null once EXPIRED: retention drops the payload. */
  payload: unknown;
  payload_size: number;
  created_at: number;
  expires_at: number;
  claimed_at: number | null;
  claimed_by_key_id: string | null;
  lease_expires_at: number | null;
  acknowledged_at: number | null;
}

export interface MessagePage {
  messages: MailboxMessage[];
  next_cursor: string | null;
}
