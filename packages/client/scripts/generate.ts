// Regenerates openapi.json and src/schema.ts from the document the API serves. Finds or starts Postgres
// and Redis the way ./scripts/start.sh does, migrates a scratch database, runs the API, writes both files.
//   pnpm --filter @evds/client generate
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDb, migrateToLatest } from '@evds/db';
import { createDatabaseIfMissing, ensureBacking } from '@evds/localenv';
import { documentFile, documentText, servedDocument, typesFile, typesText } from './document.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const backing = await ensureBacking({ dataDir: `${root}.data` });
const databaseUrl = await createDatabaseIfMissing(backing.postgresUrl, 'evds_client_document');
const db = createDb({ url: databaseUrl, poolSize: 1 });
await migrateToLatest(db);
await db.destroy();
const doc = await servedDocument(databaseUrl, backing.redisUrl);
await backing.stop();
writeFileSync(documentFile, documentText(doc));
writeFileSync(typesFile, await typesText(doc));
process.stderr.write(`wrote ${documentFile} and ${typesFile}\n`);
