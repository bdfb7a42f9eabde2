// Proves createDatabaseIfMissing against the real server on 127.0.0.1:5432: it creates a database
// once, is harmless the second time, and refuses names that would need quoting.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createDatabaseIfMissing } from './create-database.ts';

const server = 'postgres://postgres@127.0.0.1:5432';
const name = `localenv_test_${randomBytes(4).toString('hex')}`;

async function query(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await query(`drop database if exists "${name}"`);
});

describe('createDatabaseIfMissing', () => {
  it('creates the database once and returns its URL', async () => {
    const url = await createDatabaseIfMissing(server, name);
    expect(url).toBe(`${server}/${name}`);
    expect(await createDatabaseIfMissing(server, name)).toBe(url);

    const rows = await query('select count(*)::int as n from pg_database where datname = $1', [name]);
    expect(rows.rows[0]).toEqual({ n: 1 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const current = await client.query<{ db: string }>('select current_database() as db');
    await client.end();
    expect(current.rows[0]?.db).toBe(name);
  });

  it.each(['Evds', 'evds-test', 'a"; drop database postgres; --', '', 'x'.repeat(64)])(
    'rejects %j',
    async (bad) => {
      await expect(createDatabaseIfMissing(server, bad)).rejects.toThrow('invalid database name');
    },
  );
});
