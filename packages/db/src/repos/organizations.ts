import type { BillingStatus } from '@evds/domain';
import type { Db } from '../database.ts';
import type { Organization } from '../tables/index.ts';

export async function getOrganization(db: Db, orgId: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
}

export async function createOrganization(
  db: Db,
  org: { id: string; name: string; slug: string; billing_status?: BillingStatus },
): Promise<Organization> {
  return db.insertInto('organizations').values(org).returningAll().executeTakeFirstOrThrow();
}

export async function renameOrganization(db: Db, orgId: string, name: string): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ name, updated_at: new Date() })
    .where('id', '=', orgId)
    .execute();
}

export async function setBillingStatus(
  db: Db,
  orgId: string,
  status: BillingStatus,
  graceEndsAt: Date | null = null,
): Promise<boolean> {
  const r = await db
    .updateTable('organizations')
    .set({ billing_status: status, billing_grace_ends_at: graceEndsAt, updated_at: new Date() })
    .where('id', '=', orgId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function findOrganizationBySlug(db: Db, slug: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
}
