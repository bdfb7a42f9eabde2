// Prints DATABASE_URL and REDIS_URL for a shell to eval; everything else goes to stderr.
// Private instances it starts are left running on purpose: they serve the processes started after it.
import { parseArgs } from 'node:util';
import { createDatabaseIfMissing } from './create-database.ts';
import { ensureBacking } from './ensure-backing.ts';
import { shellQuote } from './shell.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: '.data' },
    database: { type: 'string', default: 'evds' },
  },
});

try {
  const backing = await ensureBacking({ dataDir: values['data-dir'], keepContainers: true });
  const databaseUrl = await createDatabaseIfMissing(backing.postgresUrl, values.database);
  process.stdout.write(
    `DATABASE_URL=${shellQuote(databaseUrl)}\nREDIS_URL=${shellQuote(backing.redisUrl)}\n`,
  );
  // The container runtime client may hold sockets open; nothing else is left to do.
  process.exit(0);
} catch (err) {
  console.error(`localenv: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
