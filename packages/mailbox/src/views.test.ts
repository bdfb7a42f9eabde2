// Proves the mailbox message record: Unix seconds everywhere, the archived payload spliced byte for byte,
// and claim fields that follow the state shown: the lease only while CLAIMED, nothing of a lapsed claim
// on a message shown UNREAD, the acknowledging claim kept (without a lease) once ACKNOWLEDGED, and no
// payload once EXPIRED.
import { describe, expect, it } from '@jest/globals';
import type { ShownMailboxMessage } from '@evds/db';
import { stringifyWithRaw } from '@evds/http';
import { messageSchema, messageView } from './views.ts';

const at = (s: number) => new Date(s * 1000 + 999);
const base: ShownMailboxMessage = {
  id: 'a'.repeat(32),
  mailbox_id: 'b'.repeat(32),
  state: 'CLAIMED',
  event_type: 'order.created',
  correlation_id: null,
  payload: Buffer.from('{"z": 1.50, "a" :[ ]}'),
  payload_size: 21,
  created_at: at(1000),
  expires_at: at(2000),
  claimed_at: at(1100),
  claimed_by_key_id: 'c'.repeat(32),
  lease_expires_at: at(1400),
  acknowledged_at: null,
  test: false,
};
const view = (m: Partial<ShownMailboxMessage>) =>
  JSON.parse(stringifyWithRaw(messageView({ ...base, ...m }))) as Record<string, unknown>;

describe('messageView', () => {
  it('shows an active claim in Unix seconds with the payload byte for byte', () => {
    const text = stringifyWithRaw(messageView(base));
    expect(text).toContain('"payload":{"z": 1.50, "a" :[ ]}');
    const v = JSON.parse(text) as Record<string, unknown>;
    expect(messageSchema.parse(v)).toEqual(v);
    expect(v).toEqual({
      id: base.id,
      mailbox_id: base.mailbox_id,
      state: 'CLAIMED',
      event_type: 'order.created',
      correlation_id: null,
      payload: { z: 1.5, a: [] },
      payload_size: 21,
      created_at: 1000,
      expires_at: 2000,
      claimed_at: 1100,
      claimed_by_key_id: base.claimed_by_key_id,
      lease_expires_at: 1400,
      acknowledged_at: null,
      test: false,
    });
  });

  it('hides a lapsed claim on a message shown UNREAD', () => {
    expect(view({ state: 'UNREAD' })).toMatchObject({
      state: 'UNREAD',
      claimed_at: null,
      claimed_by_key_id: null,
      lease_expires_at: null,
    });
  });

  it('keeps the acknowledging claim without a lease', () => {
    expect(view({ state: 'ACKNOWLEDGED', acknowledged_at: at(1200) })).toMatchObject({
      claimed_at: 1100,
      claimed_by_key_id: base.claimed_by_key_id,
      lease_expires_at: null,
      acknowledged_at: 1200,
    });
  });

  it('shows no payload and no lease once EXPIRED, even if the bytes are still stored', () => {
    expect(view({ state: 'EXPIRED' })).toMatchObject({
      payload: null,
      payload_size: 21,
      claimed_at: null,
      lease_expires_at: null,
    });
    expect(view({ state: 'EXPIRED', acknowledged_at: at(1200), payload: null })).toMatchObject({
      payload: null,
      claimed_by_key_id: base.claimed_by_key_id,
      acknowledged_at: 1200,
    });
  });
});
