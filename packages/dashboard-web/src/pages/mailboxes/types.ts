// The mailbox message record, from the OpenAPI document (see src/types.ts; Unix seconds). Its state is
// computed when read: a lapsed lease shows UNREAD again, a message past retention EXPIRED (and its
// payload null: retention drops it).
import type { Answer } from '@evds/client/types';
import { allOf } from '../../types.ts';

export type MessagePage = Answer<'/api/v1/mailboxes/{mailbox_id}/messages'>;
export type MailboxMessage = MessagePage['messages'][number];
export type MessageState = MailboxMessage['state'];

export const messageStates = allOf<MessageState>()(['UNREAD', 'CLAIMED', 'ACKNOWLEDGED', 'EXPIRED']);
