// Proves the client's committed types cannot drift from the API: a real API process on this file's own
// database serves GET /api/v1/openapi.json, and that document must equal the committed openapi.json
// byte for byte (as scripts/generate.ts writes it), and the types openapi-typescript makes from it must
// equal the committed src/schema.ts. A route, schema or summary changed in the API without regenerating
// fails here with the command that fixes it.
import { afterAll, beforeAll, it } from '@jest/globals';
import {
  committedDocument,
  committedTypes,
  documentText,
  servedDocument,
  typesText,
} from '@evds/client/document';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@evds/testkit';

const FIX = 'run `pnpm --filter @evds/client generate` and commit openapi.json and src/schema.ts';

let database: TestDatabase;
let served: unknown;

beforeAll(async () => {
  database = await createTestDatabase();
  served = await servedDocument(database.url, testRedisUrl());
});
afterAll(() => database.drop());

/** Fails with the fix in the message, rather than a diff of thousands of lines alone. */
function expectSame(what: string, actual: string, committed: string) {
  if (actual === committed) return;
  const a = actual.split('\n');
  const c = committed.split('\n');
  const line = a.findIndex((l, i) => l !== c[i]);
  throw new Error(
    `${what} drifted from the API at line ${line + 1}:\n  served:    ${a[line]}\n  committed: ${c[line]}\n${FIX}`,
  );
}

it('the committed openapi.json is the document the API serves', () => {
  expectSame('packages/client/openapi.json', documentText(served), committedDocument());
});

it('the committed src/schema.ts is what openapi-typescript makes of it', async () => {
  expectSame('packages/client/src/schema.ts', await typesText(served), committedTypes());
});
