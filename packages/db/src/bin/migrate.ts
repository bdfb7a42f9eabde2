// Migrates the database named by DATABASE_URL to the latest schema.
import { loadApiConfig } from '@evds/config';
import { createDb, migrateToLatest } from '../database.ts';

const cfg = loadApiConfig();
const db = createDb({ url: cfg.DATABASE_URL, poolSize: 1, applicationName: 'evds-migrate' });
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `migrated: ${applied.join(', ')}` : 'schema up to date');
} finally {
  await db.destroy();
}
