// Mailbox figures in /api/v1/stats count one organization's messages over a window: without this
// index that count would scan every organization's messages.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('mailbox_messages_org_created')
    .on('mailbox_messages')
    .columns(['org_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mailbox_messages_org_created').ifExists().execute();
}
