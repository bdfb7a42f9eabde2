// Named statements for the few statements every item runs (the ingest insert, the worker's load, its
// attempt record and the targets' health). Postgres parses, analyses and plans an unnamed statement on
// every call; with an item or two per batch (a steady few hundred items a second) that costs more than
// running it. A named one is parsed once per connection, on the handle's pool for named statements,
// whose sessions keep its plan (database.ts).
//
// The name is a digest of the text, so each distinct text (a statement's few variants) is prepared once
// per pooled connection, and a text change (a new release) can never run under an old name. A handle not
// made by createDb (a transaction's) runs the statement unnamed, inside its transaction.
import { createHash } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import { namedPoolOf, type Db } from './database.ts';

const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `evds_${createHash('sha256').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** A kysely query builder or `sql` template, compiled against `db`. */
interface Compilable<R> {
  compile(db: Db): CompiledQuery<R>;
}

/** Runs the query as a named statement on the handle's pool; answers its rows. */
export async function runNamed<R>(db: Db, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile(db);
  const pool = namedPoolOf(db);
  if (!pool) return (await db.executeQuery(compiled)).rows;
  const result = await pool.query({
    name: nameOf(compiled.sql),
    text: compiled.sql,
    values: [...compiled.parameters],
  });
  return result.rows as R[];
}
