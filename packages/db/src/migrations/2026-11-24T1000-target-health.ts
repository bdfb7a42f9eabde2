// A target's delivery health, kept durably on its row (the circuit itself lives in Redis and is lost
// with it): when its current run of failures began, its last success and failure, how many attempts in
// a row failed, and why the service disabled it. Auto-disable looks for enabled targets failing since
// before a cutoff; the partial index keeps that look at the few failing targets, not every target.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('targets')
    // The first failed attempt after the last success; null while the target is not failing.
    .addColumn('failing_since', 'timestamptz')
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('last_failure_at', 'timestamptz')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    // Set only when the service disabled the target itself; a target disabled by hand has none.
    .addColumn('disabled_reason', 'text')
    .execute();
  await db.schema
    .createIndex('targets_failing_since')
    .on('targets')
    .columns(['failing_since'])
    .where(sql.ref('failing_since'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('targets_failing_since').ifExists().execute();
  await db.schema
    .alterTable('targets')
    .dropColumn('failing_since')
    .dropColumn('last_success_at')
    .dropColumn('last_failure_at')
    .dropColumn('consecutive_failures')
    .dropColumn('disabled_reason')
    .execute();
}
