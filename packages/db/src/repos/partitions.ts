// The weekly partitions of events, delivery_attempts and usage_records (migration
// 2026-11-27T1000-partitioned-events): made ahead of time, and dropped whole once record retention
// has passed. Both steps avoid locks that would stop ingestion:
// - a new partition is made as a plain table and then attached, which takes SHARE UPDATE EXCLUSIVE on
//   the parent (inserts and updates go on); creating it with PARTITION OF would block them;
// - an old one is detached CONCURRENTLY (the same lock, waiting for older snapshots instead of
//   blocking), then dropped as the lone table it has become.
// Each statement waits for a lock at most LOCK_TIMEOUT; one that times out is tried again next run.
import { sql } from 'kysely';
import type { Db } from '../database.ts';

export const partitionedTables = ['events', 'delivery_attempts', 'usage_records'] as const;
const DAY_MS = 24 * 3600 * 1000;
const WEEK_MS = 7 * DAY_MS;
const LOCK_TIMEOUT = '5s';

/** Monday 00:00 UTC of the week holding `t`: partitions start there. */
export function weekStart(t: Date): Date {
  const day = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS);
}

/** The first instant still visible under record retention: 00:00 UTC of the day of now - retention. */
export function retentionBoundary(now: Date, retentionSeconds: number): Date {
  const t = new Date(now.getTime() - retentionSeconds * 1000);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
}

export const partitionName = (table: string, from: Date): string =>
  `${table}_p${from.toISOString().slice(0, 10).replaceAll('-', '')}`;

export interface Partition {
  table: string;
  name: string;
  from: Date;
  to: Date;
}

/** Every partition of the three tables with its bounds, oldest first. */
export async function listPartitions(db: Db): Promise<Partition[]> {
  const r = await sql<{ parent: string; name: string; bound: string }>`
    select p.relname as parent, c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
      join pg_namespace n on n.oid = p.relnamespace and n.nspname = current_schema()
     where p.relname in (${sql.join([...partitionedTables])})`.execute(db);
  return r.rows
    .map((row) => {
      const [from = '', to = ''] = [...row.bound.matchAll(/'([^']+)'/g)].map((m) => m[1]);
      return { table: row.parent, name: row.name, from: new Date(from), to: new Date(to) };
    })
    .sort((a, b) => a.from.getTime() - b.from.getTime() || a.table.localeCompare(b.table));
}

/** Makes the missing weekly partitions of every table covering [from, to); returns their names. */
export async function ensurePartitions(db: Db, from: Date, to: Date): Promise<string[]> {
  const existing = new Set((await listPartitions(db)).map((p) => p.name));
  const made: string[] = [];
  for (let start = weekStart(from); start < to; start = new Date(start.getTime() + WEEK_MS)) {
    const end = new Date(start.getTime() + WEEK_MS);
    for (const table of partitionedTables) {
      const name = partitionName(table, start);
      if (existing.has(name)) continue;
      await db.connection().execute(async (c) => {
        await sql`set lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(c);
        try {
          await sql`create table if not exists ${sql.id(name)}
                      (like ${sql.id(table)} including defaults including constraints)`.execute(c);
          await sql`alter table ${sql.id(table)} attach partition ${sql.id(name)}
                      for values from (${sql.lit(start.toISOString())}) to (${sql.lit(end.toISOString())})`.execute(
            c,
          );
        } finally {
          await sql`reset lock_timeout`.execute(c);
        }
      });
      made.push(name);
    }
  }
  return made;
}

/**
 * Drops every partition whose whole week is before the retention boundary (its rows are already out
 * of every read: repos/events.ts and event-counts.ts stop at the boundary), and the rollup rows of
 * the days it held. Returns the names dropped.
 */
export async function dropExpiredPartitions(db: Db, now: Date, retentionSeconds: number): Promise<string[]> {
  const boundary = retentionBoundary(now, retentionSeconds);
  const expired = (await listPartitions(db)).filter((p) => p.to <= boundary);
  const dropped: string[] = [];
  for (const p of expired) {
    await db.connection().execute(async (c) => {
      await sql`set lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(c);
      try {
        // Not in a transaction block (CONCURRENTLY refuses one); a detach left half done by a crash
        // is finished by FINALIZE.
        await sql`alter table ${sql.id(p.table)} detach partition ${sql.id(p.name)} concurrently`
          .execute(c)
          .catch(async (err: unknown) => {
            if (!/pending detach|FINALIZE/i.test(String(err))) throw err;
            await sql`alter table ${sql.id(p.table)} detach partition ${sql.id(p.name)} finalize`.execute(c);
          });
        await sql`drop table ${sql.id(p.name)}`.execute(c);
      } finally {
        await sql`reset lock_timeout`.execute(c);
      }
    });
    dropped.push(p.name);
  }
  await pruneEventCounts(db, boundary);
  return dropped;
}

/** Counter rows of days before the boundary: no read counts them any more. */
async function pruneEventCounts(db: Db, boundary: Date): Promise<void> {
  await sql`delete from event_rollup where bucket < ${boundary}`.execute(db);
  await sql`delete from event_target_counts where day < ${boundary}`.execute(db);
  await sql`delete from event_type_counts where day < ${boundary}`.execute(db);
}
