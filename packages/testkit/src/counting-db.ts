import type { Db } from '@evds/db';
import type { KyselyPlugin } from 'kysely';

/**
 * A real database handle whose statements are counted by the table they name, for tests that prove
 * a cache or a limit spares Postgres (the queries still run; nothing is mocked).
 */
export function countingDb(db: Db): { db: Db; queries: { apiKeys: number; targets: number } } {
  const queries = { apiKeys: 0, targets: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      const text = JSON.stringify(node);
      if (text.includes('"api_keys"')) queries.apiKeys++;
      if (text.includes('"targets"')) queries.targets++;
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return { db: db.withPlugin(plugin), queries };
}
