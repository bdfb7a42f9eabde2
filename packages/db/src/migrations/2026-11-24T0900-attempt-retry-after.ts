// The attempt log says when the next attempt is due and what the receiver asked for with Retry-After
// (a 429 or 503 answer may push the next attempt later than the schedule, up to its longest delay).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('delivery_attempts')
    .addColumn('retry_after', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('delivery_attempts')
    .dropColumn('retry_after')
    .dropColumn('next_attempt_at')
    .execute();
}
