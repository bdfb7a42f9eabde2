import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '@evds/db';
import pg from 'pg';

function required(name: string): string {
  const v = process.env[name];
  if (!v)
    throw new Error(`${name} is not set: run tests through jest (its global setup prepares the servers)`);
  return v;
}

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A database of this test file's own, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = required('EVDS_TEST_PG');
  const name = `evds_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(server, `create database ${name} template ${required('EVDS_TEST_TEMPLATE')}`);
  const url = `${server}/${name}`;
  const db = createDb({ url, poolSize: 5, applicationName: 'evds-test' });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await adminQuery(server, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(server: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export const testRedisUrl = (): string => required('EVDS_TEST_REDIS');

/** A Redis key prefix (and BullMQ prefix) of this test file's own. */
export const testRedisPrefix = (): string => `evdst_${randomBytes(5).toString('hex')}`;
