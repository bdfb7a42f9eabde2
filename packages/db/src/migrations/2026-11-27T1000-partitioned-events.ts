// Events, their attempts and usage records, partitioned by time: one partition per UTC week (from
// Monday 00:00), so record retention drops whole partitions (the space comes back at once, with no
// vacuum and no long delete) and a read of recent events touches recent partitions only.
//
// A partitioned table's unique keys include its partition key: the primary keys become (id, <time>).
// Ids carry their creation time (newId), so a lookup by id adds a time range and touches one partition.
// The three tables keep no foreign keys. Detaching and dropping a partition that has one takes an
// ACCESS EXCLUSIVE lock on the table it references (organizations, targets), which every insert
// checks against: retention would stall ingestion, and deadlocked with it when tried. Every row is
// written by the service for an organization and target it has just read; nothing in the service
// deletes an organization (its rows would go with record retention); targets are only ever soft-deleted.
// Two unique indexes go too, their guarantees kept elsewhere:
// - usage_records.item_id: one usage record per item is written with the item, in its transaction;
// - events (recovery_id, source_event_id): a recovery claims each original in recovery_replays first.
//
// There is no default partition: rows outside every partition are refused, not hidden somewhere
// retention cannot drop. Partitions exist from PAST weeks back (or the oldest row) to AHEAD weeks on;
// the worker's maintenance keeps them ahead (repos/partitions.ts).
import { sql, type Kysely } from 'kysely';

const PAST = 14;
const AHEAD = 8;
const WEEK_MS = 7 * 24 * 3600 * 1000;

interface Spec {
  table: string;
  time: string;
  /** Indexes of the partitioned table: [name, columns, where?, unique?]. */
  indexes: [string, string, string?][];
  /** A bigint id numbered by a sequence (a partitioned table takes no identity column before PG 17). */
  sequence?: string;
}

const specs: Spec[] = [
  {
    table: 'events',
    time: 'created_at',
    indexes: [
      ['events_org_created', 'org_id, created_at, id'],
      ['events_org_target_created', 'org_id, target_id, created_at, id'],
      ['events_org_target_status_created', 'org_id, target_id, status, created_at, id'],
      ['events_org_target_type_created', 'org_id, target_id, event_type, created_at, id'],
      ['events_org_status_created', 'org_id, status, created_at, id'],
      ['events_org_type_created', 'org_id, event_type, created_at, id'],
      ['events_org_correlation', 'org_id, correlation_id, created_at', 'correlation_id is not null'],
      ['events_due', 'next_attempt_at', "status in ('QUEUED','RETRYING')"],
      ['events_payload_retention', 'created_at', 'payload is not null'],
      ['events_recovery_source', 'recovery_id, source_event_id', 'recovery_id is not null'],
    ],
  },
  {
    table: 'delivery_attempts',
    time: 'attempted_at',
    indexes: [
      ['attempts_event', 'event_id, attempted_at'],
      ['attempts_org_attempted', 'org_id, attempted_at'],
    ],
  },
  {
    table: 'usage_records',
    time: 'created_at',
    indexes: [['usage_org_created', 'org_id, created_at']],
    sequence: 'usage_record_ids',
  },
];

// A migration keeps its own copy of these two (repos/partitions.ts has the service's): what it did
// must not change when the service's code does.

/** Monday 00:00 UTC of the week holding `t`. */
function weekStart(t: Date): Date {
  const day = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - sinceMonday * 24 * 3600 * 1000);
}

const partitionName = (table: string, from: Date): string =>
  `${table}_p${from.toISOString().slice(0, 10).replaceAll('-', '')}`;

async function partitionTable(db: Kysely<unknown>, s: Spec): Promise<void> {
  const old = `${s.table}_unpartitioned`;
  await sql`alter table ${sql.id(s.table)} rename to ${sql.id(old)}`.execute(db);
  await sql`create table ${sql.id(s.table)} (like ${sql.id(old)} including defaults including constraints)
            partition by range (${sql.id(s.time)})`.execute(db);
  if (s.sequence) {
    const next = await sql<{ n: string }>`select coalesce(max(id), 0) + 1 as n from ${sql.id(old)}`.execute(
      db,
    );
    await sql`create sequence ${sql.id(s.sequence)} start with ${sql.lit(Number(next.rows[0]?.n ?? 1))}`.execute(
      db,
    );
    await sql`alter table ${sql.id(s.table)} alter column id set default nextval(${sql.lit(s.sequence)})`.execute(
      db,
    );
  }
  const oldest = await sql<{
    t: Date | null;
  }>`select min(${sql.id(s.time)}) as t from ${sql.id(old)}`.execute(db);
  const now = Date.now();
  let from = weekStart(new Date(Math.min(now - PAST * WEEK_MS, oldest.rows[0]?.t?.getTime() ?? now)));
  const end = weekStart(new Date(now + AHEAD * WEEK_MS)).getTime() + WEEK_MS;
  for (; from.getTime() < end; from = new Date(from.getTime() + WEEK_MS)) {
    const to = new Date(from.getTime() + WEEK_MS);
    await sql`create table ${sql.id(partitionName(s.table, from))} partition of ${sql.id(s.table)}
              for values from (${sql.lit(from.toISOString())}) to (${sql.lit(to.toISOString())})`.execute(db);
  }
  await sql`insert into ${sql.id(s.table)} select * from ${sql.id(old)}`.execute(db);
  await sql`drop table ${sql.id(old)} cascade`.execute(db);
  if (s.sequence) await sql`alter sequence ${sql.id(s.sequence)} owned by ${sql.id(s.table)}.id`.execute(db);
  await sql`alter table ${sql.id(s.table)} add primary key (id, ${sql.id(s.time)})`.execute(db);
  for (const [name, cols, where] of s.indexes)
    await sql`create index ${sql.id(name)} on ${sql.id(s.table)} (${sql.raw(cols)})
              ${where ? sql`where ${sql.raw(where)}` : sql``}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`lock table events, delivery_attempts, usage_records in access exclusive mode`.execute(db);
  // The usage rollup's triggers move with the table: dropped with the old one, made again below.
  for (const s of specs) await partitionTable(db, s);
  await sql`create trigger usage_monthly_insert after insert on usage_records
    referencing new table as new_rows for each statement execute function usage_monthly_apply()`.execute(db);
  await sql`create trigger usage_monthly_update after update on usage_records
    referencing old table as old_rows new table as new_rows
    for each statement execute function usage_monthly_apply()`.execute(db);
  await sql`create trigger usage_monthly_delete after delete on usage_records
    referencing old table as old_rows for each statement execute function usage_monthly_apply()`.execute(db);

  // Each original at most once per recovery, whatever crashed in between (the unique index it replaces
  // cannot exist on a partitioned table without its creation time). Rows go when the recovery ends.
  await db.schema
    .createTable('recovery_replays')
    .addColumn('recovery_id', 'text', (c) => c.notNull().references('recoveries.id').onDelete('cascade'))
    .addColumn('source_event_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('recovery_replays_pk', ['recovery_id', 'source_event_id'])
    .execute();
  await sql`insert into recovery_replays (recovery_id, source_event_id)
            select e.recovery_id, e.source_event_id from events e join recoveries r on r.id = e.recovery_id
             where r.state = 'running'`.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(
    new Error('the partitioned event store has no way back: restore a backup taken before it'),
  );
}
