// The OpenAPI document the client's types come from: the one the API serves at
// GET /api/v1/openapi.json, fetched from a real API process started with the default configuration (some
// summaries quote configured values, such as the mailbox lease), and the TypeScript types
// openapi-typescript makes from it. Used by scripts/generate.ts and by the drift test.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { spawnService } from '@evds/testkit';

export const documentFile = fileURLToPath(new URL('../openapi.json', import.meta.url));
export const typesFile = fileURLToPath(new URL('../src/schema.ts', import.meta.url));

const HEADER =
  '// Generated from openapi.json by `pnpm --filter @evds/client generate` (openapi-typescript). Do not edit:\n' +
  '// a test fails when this file or openapi.json drifts from the document the API serves.\n\n';

/** Starts the API on a migrated database with the default configuration and answers its document. */
export async function servedDocument(databaseUrl: string, redisUrl: string): Promise<unknown> {
  const api = await spawnService('api', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `evdsdoc${randomBytes(4).toString('hex')}`,
    HOST: '127.0.0.1',
    PORT: '0',
    ENCRYPTION_KEYS: `doc:${randomBytes(32).toString('base64')}`,
  });
  try {
    const res = await fetch(`${api.url}/api/v1/openapi.json`);
    if (!res.ok) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
    return await res.json();
  } finally {
    await api.kill('SIGTERM');
  }
}

/** The document as committed: sorted as served, two-space JSON with a final newline. */
export const documentText = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

/** The types module for a document, exactly as generate writes it. */
export async function typesText(doc: unknown): Promise<string> {
  const ast = await openapiTS(documentText(doc), { alphabetize: false });
  return HEADER + astToString(ast);
}

export const committedDocument = (): string => readFileSync(documentFile, 'utf8');
export const committedTypes = (): string => readFileSync(typesFile, 'utf8');
