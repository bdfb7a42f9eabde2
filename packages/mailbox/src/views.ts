// The mailbox message record (decisions.md §5), in Unix seconds, with the archived payload spliced in
// byte for byte. It shows the state computed when read, and the claim fields that go with it.
import type { ShownMailboxMessage } from '@evds/db';
import { mailboxStates, unixOrNull, unixSeconds } from '@evds/domain';
import { rawJson, type RawJson } from '@evds/http';
import { z } from 'zod';

const seconds = z.number().int().describe('Unix seconds');
const secondsOrNull = seconds.nullable();

export const messageSchema = z.object({
  id: z.string(),
  mailbox_id: z.string(),
  state: z
    .enum(mailboxStates)
    .describe(
      'Computed when read: a CLAIMED message whose lease has passed shows UNREAD, one past retention EXPIRED',
    ),
  event_type: z.string().nullable(),
  correlation_id: z.string().nullable(),
  payload: z
    .unknown()
    .describe('The accepted JSON, byte for byte; null once the message is EXPIRED (retention drops it)'),
  payload_size: z.number().int().describe('Bytes accepted'),
  created_at: seconds,
  expires_at: seconds.describe('Unix seconds; end of retention: the message shows EXPIRED from then on'),
  claimed_at: secondsOrNull.describe(
    'Unix seconds; start of the active claim (kept when the holder extends it), or of the claim acknowledged',
  ),
  claimed_by_key_id: z
    .string()
    .nullable()
    .describe('The API key holding the active claim, or the one that acknowledged the message'),
  lease_expires_at: secondsOrNull.describe(
    'Unix seconds; while CLAIMED, when the lease passes unless the holder claims again',
  ),
  acknowledged_at: secondsOrNull,
  test: z.boolean().describe('Sent by POST /api/v1/targets/{id}/test (no usage record), not by a producer'),
});

export type MessageView = Omit<z.infer<typeof messageSchema>, 'payload'> & { payload: RawJson | null };

/**
 * A message as a consumer sees it. Claim fields describe the active claim only: a lapsed claim shows
 * UNREAD without them; an acknowledged message keeps the claim that acknowledged it, without a lease.
 */
export function messageView(m: ShownMailboxMessage): MessageView {
  const activeClaim = m.state === 'CLAIMED';
  const keepClaim = activeClaim || m.acknowledged_at !== null;
  return {
    id: m.id,
    mailbox_id: m.mailbox_id,
    state: m.state,
    event_type: m.event_type,
    correlation_id: m.correlation_id,
    payload: m.state === 'EXPIRED' ? null : rawJson(m.payload),
    payload_size: m.payload_size,
    created_at: unixSeconds(m.created_at),
    expires_at: unixSeconds(m.expires_at),
    claimed_at: keepClaim ? unixOrNull(m.claimed_at) : null,
    claimed_by_key_id: keepClaim ? m.claimed_by_key_id : null,
    lease_expires_at: activeClaim ? unixOrNull(m.lease_expires_at) : null,
    acknowledged_at: unixOrNull(m.acknowledged_at),
    test: m.test,
  };
}
