// Items sent by POST /api/v1/targets/:id/test are marked, so lists and details can tell a test from
// traffic. They go through the same tables and workers as any item (that is what they test), but they
// write no usage record: the contract counts them among the public demo simulations.
// A constant default makes adding the column a catalogue change, not a rewrite of either table.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['events', 'mailbox_messages'])
    await db.schema
      .alterTable(table)
      .addColumn('test', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['events', 'mailbox_messages'])
    await db.schema.alterTable(table).dropColumn('test').execute();
}
