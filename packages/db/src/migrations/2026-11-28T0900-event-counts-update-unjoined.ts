// The update trigger of the event counts without joining the statement's old rows to its new ones.
// The transition tables carry no statistics, so Postgres joined them by a nested loop: quadratic in the
// rows one statement changes (0.8 ms of a 2.7 ms attempt record of 32 items; seconds for a retention
// batch of thousands). Now every new row adds one and every old row takes one away in the counter
// rows of its own columns: a row whose counted columns did not change cancels out, and counter rows
// whose deltas add up to nothing are not written.
import { sql, type Kysely } from 'kysely';
import { applyDeltas, counted, movedRows } from './2026-11-27T1030-event-counts.ts';

const replace = (body: string) =>
  sql`create or replace function event_counts_update() returns trigger language plpgsql as ${sql.lit(
    `begin ${body}; return null; end`,
  )}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await replace(
    applyDeltas(
      `select ${counted}, 1 as s from new_rows union all select ${counted}, -1 from old_rows`,
      true,
    ),
  ).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replace(applyDeltas(movedRows)).execute(db);
}
