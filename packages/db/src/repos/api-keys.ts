import { sql } from 'kysely';
import type { Db } from '../database.ts';
import type { ApiKey } from '../tables/index.ts';

/** Key columns safe to show: never the hash. */
export const apiKeyColumns = [
  'id',
  'org_id',
  'name',
  'prefix',
  'created_by_user_id',
  'created_at',
  'last_used_at',
] as const;
export type PublicApiKey = Pick<ApiKey, (typeof apiKeyColumns)[number]>;

export interface KeyAuth {
  key_id: string;
  org_id: string;
  created_by_user_id: string | null;
}

export async function findApiKey(db: Db, keyHash: string): Promise<KeyAuth | undefined> {
  return db
    .selectFrom('api_keys')
    .select(['id as key_id', 'org_id', 'created_by_user_id'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/**
 * Sets the key's `last_used_at` to now unless it was set within the last minute: each of several
 * replicas may note a key once a minute, and only the first of them in a minute writes a row.
 */
export async function noteApiKeyUsed(db: Db, keyId: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql`now()` })
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`),
      ]),
    )
    .execute();
}

export async function listApiKeys(db: Db, orgId: string): Promise<PublicApiKey[]> {
  return db
    .selectFrom('api_keys')
    .select(apiKeyColumns)
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export type CreateKeyResult = { ok: true; key: PublicApiKey } | { ok: false; reason: 'limit' | 'billing' };

/**
 * Inserts a key unless the workspace is at its limit or its billing state blocks key creation.
 * The org row is locked so concurrent creations cannot pass the limit together.
 */
export async function createApiKey(
  db: Db,
  key: {
    id: string;
    org_id: string;
    name: string;
    key_hash: string;
    prefix: string;
    created_by_user_id: string | null;
  },
  limit: number,
  blocked: (billingStatus: string) => boolean,
): Promise<CreateKeyResult> {
  return db.transaction().execute(async (tx) => {
    const org = await tx
      .selectFrom('organizations')
      .select('billing_status')
      .where('id', '=', key.org_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (blocked(org.billing_status)) return { ok: false, reason: 'billing' } as const;
    const { n } = await tx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', key.org_id)
      .executeTakeFirstOrThrow();
    if (n >= limit) return { ok: false, reason: 'limit' } as const;
    const row = await tx
      .insertInto('api_keys')
      .values(key)
      .returning(apiKeyColumns)
      .executeTakeFirstOrThrow();
    return { ok: true, key: row } as const;
  });
}

export type DeleteKeyResult = 'deleted' | 'not_found' | 'last_key' | 'in_use';

/** Deletes a key of the org, refusing the last one and the one making the request. */
export async function deleteApiKey(
  db: Db,
  orgId: string,
  keyId: string,
  requestKeyId: string | null,
): Promise<DeleteKeyResult> {
  return db.transaction().execute(async (tx) => {
    await tx.selectFrom('organizations').select('id').where('id', '=', orgId).forUpdate().execute();
    const keys = await tx.selectFrom('api_keys').select('id').where('org_id', '=', orgId).execute();
    if (!keys.some((k) => k.id === keyId)) return 'not_found';
    if (keyId === requestKeyId) return 'in_use';
    if (keys.length <= 1) return 'last_key';
    await tx.deleteFrom('api_keys').where('org_id', '=', orgId).where('id', '=', keyId).execute();
    return 'deleted';
  });
}
