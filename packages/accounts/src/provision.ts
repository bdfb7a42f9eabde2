import type { Db } from '@evds/db';
import { newApiKey, newId, type BillingStatus } from '@evds/domain';
import { hashPassword } from './passwords.ts';

export interface WorkspaceInput {
  orgName: string;
  slug: string;
  email: string;
  userName: string;
  password: string;
  /** A hash of `password` made earlier, to skip hashing again (the test kit seeds many workspaces). */
  passwordHash?: string;
  billingStatus: BillingStatus;
}

export interface Workspace {
  orgId: string;
  userId: string;
  keyId: string;
  /** The full API key: shown once, only its hash is stored. */
  apiKey: string;
}

/** Founder provisioning: an organization, its first user and its first API key, all or nothing. */
export async function provisionWorkspace(db: Db, input: WorkspaceInput): Promise<Workspace> {
  const passwordHash = input.passwordHash ?? (await hashPassword(input.password));
  const key = newApiKey();
  const ids = { orgId: newId(), userId: newId(), keyId: newId() };
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('organizations')
      .values({ id: ids.orgId, name: input.orgName, slug: input.slug, billing_status: input.billingStatus })
      .execute();
    await tx
      .insertInto('users')
      .values({
        id: ids.userId,
        org_id: ids.orgId,
        email: input.email.toLowerCase(),
        name: input.userName,
        password_hash: passwordHash,
      })
      .execute();
    await tx
      .insertInto('api_keys')
      .values({
        id: ids.keyId,
        org_id: ids.orgId,
        name: 'default',
        key_hash: key.hash,
        prefix: key.prefix,
        created_by_user_id: ids.userId,
      })
      .execute();
  });
  return { ...ids, apiKey: key.key };
}

/** A URL-safe slug from a name, e.g. "Acme Corp." -> "acme-corp". */
export const slugify = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48) || 'workspace';
