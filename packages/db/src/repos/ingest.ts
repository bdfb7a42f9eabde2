import { sql } from 'kysely';
import type { BillingStatus, EventStatus, MailboxState, TargetKind } from '@evds/domain';
import type { Db } from '../database.ts';
import { runNamed } from '../prepared.ts';
import { shownState } from './mailbox.ts';

/** What ingestion needs to know about a target and its organization, in one read. */
export interface IngestTarget {
  id: string;
  org_id: string;
  kind: TargetKind;
  enabled: boolean;
  event_types: string[];
  max_payload_bytes: number;
  verify_inbound_signatures: boolean;
  inbound_secret: string | null;
  billing_status: BillingStatus;
}

export async function getIngestTarget(
  db: Db,
  orgId: string,
  targetId: string,
): Promise<IngestTarget | undefined> {
  return db
    .selectFrom('targets as t')
    .innerJoin('organizations as o', 'o.id', 't.org_id')
    .select([
      't.id',
      't.org_id',
      't.kind',
      't.enabled',
      't.event_types',
      't.max_payload_bytes',
      't.verify_inbound_signatures',
      't.inbound_secret',
      'o.billing_status',
    ])
    .where('t.org_id', '=', orgId)
    .where('t.id', '=', targetId)
    .where('t.deleted_at', 'is', null)
    .executeTakeFirst();
}

export interface NewItem {
  id: string;
  orgId: string;
  targetId: string;
  kind: TargetKind;
  eventType: string | null;
  correlationId: string | null;
  payload: Buffer;
  requestId: string | null;
  /** Mailbox messages: when retention ends. */
  expiresAt?: Date;
  /** Sent by the test route: marked, and no usage record (writeItem; the group commit takes none). */
  test?: true;
  /** The delivery job group it is enqueued in with other items of its commit (insertItems only). */
  jobGroup?: number;
}

export interface Idempotency {
  key: string;
  bodyHash: string;
  ttlSeconds: number;
}

export type InsertItemResult =
  | { outcome: 'created'; id: string; status: EventStatus | MailboxState }
  | { outcome: 'duplicate'; id: string; status: EventStatus | MailboxState }
  | { outcome: 'idempotency_conflict' };

/**
 * Commits an accepted item, its archived payload and its usage record in one transaction. With an
 * idempotency key, the key row is claimed first in the same transaction: a concurrent request with
 * the same key waits on it, then sees the original item (or a different body: a conflict).
 */
export async function insertItem(db: Db, item: NewItem, idem?: Idempotency): Promise<InsertItemResult> {
  return db.transaction().execute(async (tx) => {
    if (idem) {
      const claimed = await tx
        .insertInto('idempotency_keys')
        .values({
          org_id: item.orgId,
          target_id: item.targetId,
          key: idem.key,
          body_hash: idem.bodyHash,
          item_id: item.id,
          expires_at: sql<Date>`now() + make_interval(secs => ${idem.ttlSeconds})`,
        })
        .onConflict((oc) =>
          oc
            .columns(['org_id', 'target_id', 'key'])
            .doUpdateSet({
              body_hash: idem.bodyHash,
              item_id: item.id,
              created_at: sql<Date>`now()`,
              expires_at: sql<Date>`now() + make_interval(secs => ${idem.ttlSeconds})`,
            })
            .where('idempotency_keys.expires_at', '<=', sql<Date>`now()`),
        )
        .returning('item_id')
        .executeTakeFirst();
      if (!claimed) {
        const existing = await tx
          .selectFrom('idempotency_keys')
          .select(['body_hash', 'item_id'])
          .where('org_id', '=', item.orgId)
          .where('target_id', '=', item.targetId)
          .where('key', '=', idem.key)
          .executeTakeFirstOrThrow();
        if (existing.body_hash !== idem.bodyHash) return { outcome: 'idempotency_conflict' } as const;
        return {
          outcome: 'duplicate',
          id: existing.item_id,
          status: await itemStatus(tx, item.kind, existing.item_id),
        } as const;
      }
    }
    const status = await writeItem(tx, item);
    return { outcome: 'created', id: item.id, status } as const;
  });
}

/**
 * The item's row (an event or a mailbox message, its payload archived) and, unless it is a test, its
 * usage record: one place, so a test item is written exactly as an accepted one. Run it in a transaction.
 */
export async function writeItem(tx: Db, item: NewItem): Promise<EventStatus | MailboxState> {
  // Set only on test items: the column's default covers ingestion's hot path.
  const marked = item.test ? { test: true } : {};
  if (item.kind === 'mailbox')
    await tx
      .insertInto('mailbox_messages')
      .values({
        id: item.id,
        org_id: item.orgId,
        mailbox_id: item.targetId,
        state: 'UNREAD',
        event_type: item.eventType,
        correlation_id: item.correlationId,
        payload: item.payload,
        payload_size: item.payload.length,
        expires_at: item.expiresAt ?? new Date(Date.now() + 7 * 24 * 3600 * 1000),
        ...marked,
      })
      .execute();
  else
    await tx
      .insertInto('events')
      .values({
        id: item.id,
        org_id: item.orgId,
        target_id: item.targetId,
        target_kind: item.kind,
        event_type: item.eventType,
        correlation_id: item.correlationId,
        status: 'QUEUED',
        source_event_id: null,
        payload: item.payload,
        payload_size: item.payload.length,
        next_attempt_at: sql<Date>`now()`,
        last_attempt_at: null,
        delivered_at: null,
        final_reason: null,
        request_id: item.requestId,
        ...marked,
      })
      .execute();
  if (!item.test)
    await tx
      .insertInto('usage_records')
      .values({ org_id: item.orgId, item_id: item.id, item_kind: item.kind, reported_at: null })
      .execute();
  return item.kind === 'mailbox' ? 'UNREAD' : 'QUEUED';
}

/**
 * Group commit: many accepted items (no idempotency key) in one statement, events and mailbox messages
 * (in CTEs) with their usage records. All commit together or none does, and Postgres is asked once, not
 * four times (begin, two inserts, commit). Each column travels as one array parameter (unnest), so the
 * statement's text and parameter count are the same whatever the batch size: cheap to build here and
 * to parse there, where a multi-row VALUES list takes one parameter per column per row.
 */
export async function insertItems(db: Db, items: NewItem[]): Promise<void> {
  if (items.length === 0) return;
  const events = items.filter((i) => i.kind !== 'mailbox');
  const messages = items.filter((i) => i.kind === 'mailbox');
  const col = <T>(rows: NewItem[], f: (i: NewItem) => T) => rows.map(f);
  const ctes = [];
  if (events.length > 0)
    ctes.push(sql`e as (
    insert into events (id, org_id, target_id, target_kind, event_type, correlation_id, status, payload,
                        payload_size, next_attempt_at, request_id, job_group)
    select x.id, x.org_id, x.target_id, x.kind, x.event_type, x.correlation_id, 'QUEUED', x.payload,
           length(x.payload), now(), x.request_id, x.job_group
    from unnest(${col(events, (i) => i.id)}::text[], ${col(events, (i) => i.orgId)}::text[],
                ${col(events, (i) => i.targetId)}::text[], ${col(events, (i) => i.kind)}::text[],
                ${col(events, (i) => i.eventType)}::text[], ${col(events, (i) => i.correlationId)}::text[],
                ${col(events, (i) => i.payload)}::bytea[], ${col(events, (i) => i.requestId)}::text[],
                ${col(events, (i) => i.jobGroup ?? null)}::bigint[])
      as x(id, org_id, target_id, kind, event_type, correlation_id, payload, request_id, job_group))`);
  if (messages.length > 0)
    ctes.push(sql`m as (
    insert into mailbox_messages (id, org_id, mailbox_id, state, event_type, correlation_id, payload,
                                  payload_size, expires_at)
    select x.id, x.org_id, x.mailbox_id, 'UNREAD', x.event_type, x.correlation_id, x.payload,
           length(x.payload), x.expires_at
    from unnest(${col(messages, (i) => i.id)}::text[], ${col(messages, (i) => i.orgId)}::text[],
                ${col(messages, (i) => i.targetId)}::text[], ${col(messages, (i) => i.eventType)}::text[],
                ${col(messages, (i) => i.correlationId)}::text[], ${col(messages, (i) => i.payload)}::bytea[],
                ${col(messages, (i) => i.expiresAt ?? new Date(Date.now() + 7 * 24 * 3600 * 1000))}::timestamptz[])
      as x(id, org_id, mailbox_id, event_type, correlation_id, payload, expires_at))`);
  await runNamed(
    db,
    sql`
    with ${sql.join(ctes)}
    insert into usage_records (org_id, item_id, item_kind)
    select * from unnest(${col(items, (i) => i.orgId)}::text[], ${col(items, (i) => i.id)}::text[],
                         ${col(items, (i) => i.kind)}::text[])`,
  );
}

async function itemStatus(tx: Db, kind: TargetKind, id: string): Promise<EventStatus | MailboxState> {
  if (kind === 'mailbox') {
    const m = await tx
      .selectFrom('mailbox_messages as m')
      .select(shownState.as('state'))
      .where('m.id', '=', id)
      .executeTakeFirstOrThrow();
    return m.state;
  }
  const e = await tx.selectFrom('events').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return e.status;
}
