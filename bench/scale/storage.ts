// Storage figures for the scale benchmarks: each event table with all its partitions, indexes and
// TOAST; the rollup tables; the whole database.
import type { Db } from '@evds/db';
import { sql } from 'kysely';

export const MAIN_TABLES = ['events', 'delivery_attempts', 'usage_records'] as const;
/** The rollups kept from those tables: by name, so tables added later are found without a list here. */
const ROLLUP_NAME = /rollup|_counts$|_monthly$|_daily$/;

export interface TableSize {
  table: string;
  bytes: number;
  /** Partitions holding its rows (1 when it is not partitioned). */
  partitions: number;
  /** The planner's row estimate (exact after VACUUM ANALYZE). */
  rows: number;
}

export interface Storage {
  tables: TableSize[];
  rollups: TableSize[];
  databaseBytes: number;
}

/** Each leaf partition of a table (or the table itself when it has none), with the start of its range. */
export async function leaves(
  db: Db,
  table: string,
): Promise<{ from: Date | null; bytes: number; rows: number }[]> {
  const r = await sql<{ from: Date | null; bytes: string; rows: string }>`
    with l as (
      select relid from pg_partition_tree(${table}::regclass) where isleaf
      union all
      select ${table}::regclass where not exists (select 1 from pg_partition_tree(${table}::regclass))
    )
    select -- "FOR VALUES FROM ('<start>') TO ('<end>')": the start is between the first two quotes
           nullif(split_part(pg_get_expr(c.relpartbound, c.oid), '''', 2), '')::timestamptz as from,
           pg_total_relation_size(l.relid)::bigint as bytes, greatest(c.reltuples, 0)::bigint as rows
      from l join pg_class c on c.oid = l.relid`.execute(db);
  return r.rows.map((x) => ({ from: x.from, bytes: Number(x.bytes), rows: Number(x.rows) }));
}

/** A table's size over its leaf partitions, with indexes and TOAST; `keep` picks partitions by start. */
export async function tableSize(
  db: Db,
  table: string,
  keep?: (from: Date | null) => boolean,
): Promise<TableSize> {
  const ls = (await leaves(db, table)).filter((l) => keep?.(l.from) ?? true);
  return {
    table,
    bytes: ls.reduce((s, l) => s + l.bytes, 0),
    partitions: ls.length,
    rows: ls.reduce((s, l) => s + l.rows, 0),
  };
}

export async function storage(db: Db, keep?: (from: Date | null) => boolean): Promise<Storage> {
  const tables = [];
  for (const t of MAIN_TABLES) tables.push(await tableSize(db, t, keep));
  const names = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
     order by 1`.execute(db);
  const rollups = [];
  for (const { name } of names.rows)
    if (ROLLUP_NAME.test(name) && !(MAIN_TABLES as readonly string[]).includes(name))
      rollups.push(await tableSize(db, name));
  const d = await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(db);
  return { tables, rollups, databaseBytes: Number(d.rows[0]?.bytes ?? 0) };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
