import pg from 'pg';
import { databaseUrlOf } from './urls.ts';

// The name is interpolated into CREATE DATABASE (identifiers cannot be bound parameters).
const DATABASE_NAME = /^[a-z0-9_]+$/;

export async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<string> {
  if (!DATABASE_NAME.test(name) || name.length > 63) {
    throw new Error(`invalid database name ${JSON.stringify(name)}: use 1-63 of [a-z0-9_]`);
  }
  const client = new pg.Client({ connectionString: databaseUrlOf(serverUrl, 'postgres') });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const existing = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount === 0) {
      try {
        await client.query(`create database "${name}"`);
      } catch (err) {
        // 42P04 duplicate_database: a concurrent caller created it between our check and create.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
  return databaseUrlOf(serverUrl, name);
}
