// Runs once per jest run: finds (or starts) Postgres and Redis and prepares a migrated template
// database that every test file clones. Exported through env so worker processes see it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDb, migrateToLatest } from '@evds/db';
import { ensureBacking } from '@evds/localenv';
import pg from 'pg';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export default async function globalSetup(): Promise<void> {
  const backing = await ensureBacking({ dataDir: `${root}.data/test` });
  (globalThis as { __evdsBacking?: typeof backing }).__evdsBacking = backing;
  // Named after the migrations' source: one edited while it is being written gets a template of its
  // own instead of a stale one.
  const dir = `${root}packages/db/src/migrations`;
  const schema = readdirSync(dir)
    .sort()
    .map((f) => `${f}\n${readFileSync(`${dir}/${f}`, 'utf8')}`);
  const template = `evds_tmpl_${createHash('sha256').update(schema.join('\n')).digest('hex').slice(0, 12)}`;
  await ensureTemplate(backing.postgresUrl, template);
  process.env.EVDS_TEST_PG = backing.postgresUrl;
  process.env.EVDS_TEST_REDIS = backing.redisUrl;
  process.env.EVDS_TEST_TEMPLATE = template;
}

/** Creates and migrates the template once per schema version; concurrent runs serialise on an advisory lock. */
async function ensureTemplate(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(4242)');
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return;
    await admin.query(`create database ${name}`);
    const db = createDb({ url: `${serverUrl}/${name}`, poolSize: 1 });
    try {
      await migrateToLatest(db);
    } catch (err) {
      await db.destroy();
      await admin.query(`drop database ${name}`);
      throw err;
    }
    await db.destroy();
  } finally {
    await admin.query('select pg_advisory_unlock(4242)').catch(() => {});
    await admin.end();
  }
}
