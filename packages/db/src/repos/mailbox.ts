import { sql, type SqlBool } from 'kysely';
import { mailboxStates, type MailboxState } from '@evds/domain';
import type { Db } from '../database.ts';

// Mailbox messages as consumers see them. The stored state lags behind time: a lease passes and
// retention ends without a write, so every read computes the state shown from the clock of Postgres
// (the same clock the conditional claim and ack updates use), and the status filter uses it too.

/** Past retention, whatever is stored: the maintenance job makes it so in storage later. */
const pastRetention = sql<SqlBool>`(m.state = 'EXPIRED' or m.expires_at <= now())`;

/** The state a message shows (on alias `m`): computed when read, from its lease and retention. */
export const shownState = sql<MailboxState>`case
  when ${pastRetention} then 'EXPIRED'
  when m.state = 'CLAIMED' and m.lease_expires_at <= now() then 'UNREAD'
  else m.state end`;

/** Stored states a shown state can come from: lets the (mailbox_id, state, ...) index narrow a filter. */
const storedFor: Record<MailboxState, readonly MailboxState[]> = {
  UNREAD: ['UNREAD', 'CLAIMED'],
  CLAIMED: ['CLAIMED'],
  ACKNOWLEDGED: ['ACKNOWLEDGED'],
  EXPIRED: mailboxStates,
};

/** The message's mailbox is a live target (a deleted mailbox takes its messages with it). */
const inLiveMailbox = sql<SqlBool>`exists (
  select 1 from targets t where t.id = m.mailbox_id and t.kind = 'mailbox' and t.deleted_at is null)`;

const columns = [
  'm.id',
  'm.mailbox_id',
  'm.event_type',
  'm.correlation_id',
  'm.payload_size',
  'm.created_at',
  'm.expires_at',
  'm.claimed_at',
  'm.claimed_by_key_id',
  'm.lease_expires_at',
  'm.acknowledged_at',
  'm.test',
] as const;
const state = shownState.as('state');
/** A message past retention has no payload to show, even before the job has dropped it. */
const payloadShown = sql<Buffer | null>`case when ${pastRetention} then null else m.payload end`;
const payload = payloadShown.as('payload');
/** The list's order, as a window: the running count and byte total of a page follow it. */
const pageOrder = sql`order by m.created_at, m.id rows unbounded preceding`;
/** The bytes of the payload shown, without reading it (octet_length takes a stored value's length). */
const shownBytes = sql<number>`case when ${pastRetention} then 0 else coalesce(octet_length(m.payload), 0) end`;

/**
 * A message as stored, except `state` (the state shown now) and `payload` (null past retention).
 * Claim fields are the stored ones; which of them a consumer sees is the view's business.
 */
export interface ShownMailboxMessage {
  id: string;
  mailbox_id: string;
  state: MailboxState;
  event_type: string | null;
  correlation_id: string | null;
  payload: Buffer | null;
  payload_size: number;
  created_at: Date;
  expires_at: Date;
  claimed_at: Date | null;
  claimed_by_key_id: string | null;
  lease_expires_at: Date | null;
  acknowledged_at: Date | null;
  /** Sent by POST /api/v1/targets/:id/test. */
  test: boolean;
}

/** True for a live (not deleted) mailbox target of the organization. */
export async function mailboxExists(db: Db, orgId: string, mailboxId: string): Promise<boolean> {
  const row = await db
    .selectFrom('targets')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', '=', mailboxId)
    .where('kind', '=', 'mailbox')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export type ListMessagesResult =
  | { outcome: 'listed'; messages: ShownMailboxMessage[]; nextCursor: string | null }
  | { outcome: 'mailbox_not_found' }
  | { outcome: 'bad_cursor' };

/**
 * One page of a mailbox, oldest first (created_at, then id), after the message `after` when given:
 * at most `limit` messages, and no more payload bytes than `maxBytes`, except that the first message
 * always comes (so a consumer always makes progress). `nextCursor` is set whenever messages remain.
 * Reads only: listing never changes a message.
 *
 * The page is chosen from sizes alone: the candidates' running total of payload bytes comes from
 * octet_length, which reads a stored value's length without fetching it, and only the payloads of
 * the messages kept are read. A page of 100 large messages never loads the 99 that do not fit.
 */
export async function listMailboxMessages(
  db: Db,
  orgId: string,
  mailboxId: string,
  opts: { status?: MailboxState; after?: string; limit: number; maxBytes: number },
): Promise<ListMessagesResult> {
  const [exists, cursor] = await Promise.all([
    mailboxExists(db, orgId, mailboxId),
    opts.after === undefined
      ? undefined
      : db
          .selectFrom('mailbox_messages')
          .select('id')
          .where('org_id', '=', orgId)
          .where('mailbox_id', '=', mailboxId)
          .where('id', '=', opts.after)
          .executeTakeFirst(),
  ]);
  if (!exists) return { outcome: 'mailbox_not_found' };
  if (opts.after !== undefined && !cursor) return { outcome: 'bad_cursor' };
  let candidates = db
    .selectFrom('mailbox_messages as m')
    .select([
      'm.id',
      sql<number>`row_number() over (${pageOrder})`.as('n'),
      sql<number>`sum(${shownBytes}) over (${pageOrder})`.as('bytes_through'),
    ])
    .where('m.org_id', '=', orgId)
    .where('m.mailbox_id', '=', mailboxId);
  if (opts.status)
    candidates = candidates
      .where('m.state', 'in', storedFor[opts.status])
      .where(sql<SqlBool>`${shownState} = ${opts.status}`);
  // Postgres compares its own microsecond timestamps: a JavaScript Date would round the cursor.
  if (opts.after !== undefined)
    candidates = candidates.where(
      sql<SqlBool>`(m.created_at, m.id) > (select c.created_at, c.id from mailbox_messages c where c.id = ${opts.after})`,
    );
  const kept = sql<SqlBool>`(p.n = 1 or p.bytes_through <= ${opts.maxBytes}) and p.n <= ${opts.limit}`;
  const rows = await db
    .with('p', () =>
      candidates
        .orderBy('m.created_at')
        .orderBy('m.id')
        .limit(opts.limit + 1),
    )
    .selectFrom('p')
    .innerJoin('mailbox_messages as m', 'm.id', 'p.id')
    .select(columns)
    .select([state, sql<Buffer | null>`case when ${kept} then ${payloadShown} end`.as('payload')])
    .select(kept.as('kept'))
    .orderBy('p.n')
    .execute();
  const messages = rows.filter((r) => r.kept).map(({ kept: _, ...m }) => m);
  const last = messages.at(-1);
  return {
    outcome: 'listed',
    messages,
    nextCursor: rows.length > messages.length && last ? last.id : null,
  };
}

/** A message of the organization in a live mailbox, as shown now. */
export async function getMailboxMessage(
  db: Db,
  orgId: string,
  id: string,
): Promise<ShownMailboxMessage | undefined> {
  return db
    .selectFrom('mailbox_messages as m')
    .select(columns)
    .select([state, payload])
    .where('m.org_id', '=', orgId)
    .where('m.id', '=', id)
    .where(inLiveMailbox)
    .executeTakeFirst();
}

export type MessageChange =
  | { outcome: 'changed'; message: ShownMailboxMessage }
  | { outcome: 'not_found' }
  /** The update matched nothing: the message as it is now, for the caller to say why. */
  | { outcome: 'refused'; message: ShownMailboxMessage };

/**
 * Claims a message for an API key with one conditional UPDATE, so concurrent claims are serialised by
 * the row lock and exactly one wins: an unread message, one whose lease has passed, or one this key
 * already holds (the lease is extended, claimed_at kept) becomes CLAIMED until now() + leaseSeconds.
 * Only when nothing matched is the message read again, to tell 404 from 409.
 */
export async function claimMailboxMessage(
  db: Db,
  orgId: string,
  id: string,
  keyId: string,
  leaseSeconds: number,
): Promise<MessageChange> {
  const message = await db
    .updateTable('mailbox_messages as m')
    .set({
      state: 'CLAIMED',
      claimed_at: sql<Date>`case
        when m.state = 'CLAIMED' and m.claimed_by_key_id = ${keyId} and m.lease_expires_at > now()
        then m.claimed_at else now() end`,
      claimed_by_key_id: keyId,
      lease_expires_at: sql<Date>`now() + make_interval(secs => ${leaseSeconds})`,
    })
    .where('m.id', '=', id)
    .where('m.org_id', '=', orgId)
    .where(sql<SqlBool>`m.expires_at > now()`)
    .where(
      sql<SqlBool>`(m.state = 'UNREAD' or (m.state = 'CLAIMED'
        and (m.lease_expires_at <= now() or m.claimed_by_key_id = ${keyId})))`,
    )
    .where(inLiveMailbox)
    .returning(columns)
    .returning([state, payload])
    .executeTakeFirst();
  return message ? { outcome: 'changed', message } : afterMiss(db, orgId, id);
}

/**
 * Acknowledges a message with one conditional UPDATE: only the key holding the active claim may,
 * and only before retention ends.
 */
export async function ackMailboxMessage(
  db: Db,
  orgId: string,
  id: string,
  keyId: string,
): Promise<MessageChange> {
  const message = await db
    .updateTable('mailbox_messages as m')
    .set({ state: 'ACKNOWLEDGED', acknowledged_at: sql<Date>`now()` })
    .where('m.id', '=', id)
    .where('m.org_id', '=', orgId)
    .where('m.state', '=', 'CLAIMED')
    .where('m.claimed_by_key_id', '=', keyId)
    .where(sql<SqlBool>`m.lease_expires_at > now() and m.expires_at > now()`)
    .where(inLiveMailbox)
    .returning(columns)
    .returning([state, payload])
    .executeTakeFirst();
  return message ? { outcome: 'changed', message } : afterMiss(db, orgId, id);
}

async function afterMiss(db: Db, orgId: string, id: string): Promise<MessageChange> {
  const message = await getMailboxMessage(db, orgId, id);
  return message ? { outcome: 'refused', message } : { outcome: 'not_found' };
}

/** Messages of the organization created since `since`, by the state shown now. */
export async function mailboxStateCounts(
  db: Db,
  orgId: string,
  since: Date,
): Promise<Record<MailboxState, number>> {
  const r = await sql<{ state: MailboxState; n: number }>`
    select ${shownState} as state, count(*)::int as n
    from mailbox_messages m
    where m.org_id = ${orgId} and m.created_at >= ${since}
    group by 1`.execute(db);
  const counts = Object.fromEntries(mailboxStates.map((s) => [s, 0])) as Record<MailboxState, number>;
  for (const row of r.rows) counts[row.state] = row.n;
  return counts;
}
