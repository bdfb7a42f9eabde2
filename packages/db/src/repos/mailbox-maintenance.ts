// Mailbox messages as the service itself handles them, never as a tenant sees them: retention in
// storage (the maintenance job) and the backlog counts of the operator's metrics.
import { sql } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Retention in storage: messages past expires_at become EXPIRED and lose their payload, `batch` rows
 * per statement (rows being claimed right now are skipped and caught on the next run), at most
 * `maxBatches` statements per call. Returns how many messages expired.
 */
export async function expireMailboxMessages(db: Db, batch: number, maxBatches: number): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const r = await db
      .updateTable('mailbox_messages')
      .set({ state: 'EXPIRED', payload: null })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('mailbox_messages')
          .select('id')
          .where('state', '<>', 'EXPIRED')
          .where('expires_at', '<=', sql<Date>`now()`)
          .limit(batch)
          .forUpdate()
          .skipLocked(),
      )
      .executeTakeFirst();
    const n = Number(r.numUpdatedRows);
    total += n;
    if (n < batch) break;
  }
  return total;
}

/**
 * Record retention for mailboxes: messages created before `before` (long expired or acknowledged) are
 * deleted, `batch` rows per statement found per mailbox through (mailbox_id, created_at), at most
 * `maxBatches` statements per call. Returns how many were deleted.
 */
export async function deleteOldMailboxMessages(
  db: Db,
  before: Date,
  batch: number,
  maxBatches: number,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const r = await sql`
      delete from mailbox_messages where id in (
        select m.id from targets t
          cross join lateral (select id from mailbox_messages m
                               where m.mailbox_id = t.id and m.created_at < ${before} limit ${batch}) m
         where t.kind = 'mailbox'
         limit ${batch})`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    total += n;
    if (n < batch) break;
  }
  return total;
}

/**
 * FOR THE OPERATOR'S METRICS ONLY (no tenant sees it): stored UNREAD and CLAIMED messages across every
 * organization. Bounded: each count stops at `cap` rows and the statement at `timeoutMs`, so a scrape
 * costs little even with a huge backlog. A CLAIMED message whose lease has lapsed still counts as
 * CLAIMED here (the state shown to consumers is computed when read).
 */
export async function countMailboxBacklog(
  db: Db,
  cap: number,
  timeoutMs: number,
): Promise<{ UNREAD: number; CLAIMED: number }> {
  return db.transaction().execute(async (tx) => {
    await sql`set local statement_timeout = ${sql.lit(Math.max(1, Math.floor(timeoutMs)))}`.execute(tx);
    const r = await sql<{ unread: number; claimed: number }>`
      select
        (select count(*) from (select 1 from mailbox_messages where state = 'UNREAD' limit ${cap}) u)::int as unread,
        (select count(*) from (select 1 from mailbox_messages where state = 'CLAIMED' limit ${cap}) c)::int as claimed`.execute(
      tx,
    );
    const row = r.rows[0];
    return { UNREAD: row?.unread ?? 0, CLAIMED: row?.claimed ?? 0 };
  });
}
