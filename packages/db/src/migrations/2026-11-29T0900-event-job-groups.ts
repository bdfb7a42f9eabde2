// Ingest enqueues the items of one commit as one delivery job (a group) rather than one job each. Each
// item keeps its group's number, so the sweeper can ask Redis whether that job still waits before it
// takes the item for lost. No default and no index: adding it rewrites nothing, and only the sweeper
// reads it, through the rows it has already found overdue.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column job_group bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events drop column job_group`.execute(db);
}
