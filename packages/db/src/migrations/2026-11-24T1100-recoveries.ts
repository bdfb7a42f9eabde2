// Bulk replay ("recover"): one row per recovery with its range, progress and a cursor, and on events
// the recovery that made a replay. The unique index on (recovery_id, source_event_id) makes a retried
// batch harmless: each original is replayed at most once per recovery, whatever crashed in between.
//
// events.recovery_id has no foreign key on purpose: a foreign key queues a check trigger on every
// insert into events, ingest's hot path included, for a column ingest never sets. Both tables go with
// their organization (cascade), so the reference cannot outlive what it names in practice.
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recoveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('target_id', 'text', (c) => c.notNull().references('targets.id'))
    .addColumn('since', 'timestamptz', (c) => c.notNull())
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .addColumn('statuses', sql`text[]`, (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running','completed','failed')`))
    .addColumn('matched', 'integer', (c) => c.notNull())
    .addColumn('replayed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    // The last original handled, as (created_at, id): the next batch starts after it.
    .addColumn('cursor_created_at', 'timestamptz')
    .addColumn('cursor_id', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // The sweeper looks for running recoveries whose job is gone on every tick: keep that read tiny.
  await db.schema
    .createIndex('recoveries_running')
    .on('recoveries')
    .columns(['updated_at'])
    .where(sql.ref('state'), '=', 'running')
    .execute();

  await db.schema.alterTable('events').addColumn('recovery_id', 'text').execute();
  // Partial: ordinary events (recovery_id null) stay out of it and cost ingest nothing.
  await db.schema
    .createIndex('events_recovery_source')
    .on('events')
    .columns(['recovery_id', 'source_event_id'])
    .unique()
    .where(sql.ref('recovery_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_recovery_source').ifExists().execute();
  await db.schema.alterTable('events').dropColumn('recovery_id').execute();
  await db.schema.dropTable('recoveries').ifExists().execute();
}
