import type { Db } from '../database.ts';
import type { User } from '../tables/index.ts';

/** The user's public columns: never the password hash. */
export const userColumns = ['id', 'org_id', 'email', 'name', 'created_at'] as const;
export type PublicUser = Pick<User, (typeof userColumns)[number]>;

export async function findUserForLogin(db: Db, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function getUser(db: Db, orgId: string, userId: string): Promise<PublicUser | undefined> {
  return db
    .selectFrom('users')
    .select(userColumns)
    .where('org_id', '=', orgId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function createUser(
  db: Db,
  user: { id: string; org_id: string; email: string; name: string; password_hash: string },
): Promise<PublicUser> {
  return db
    .insertInto('users')
    .values({ ...user, email: user.email.toLowerCase() })
    .returning(userColumns)
    .executeTakeFirstOrThrow();
}

/**
 * Replaces a password hash with one of the same password under stronger parameters (at login).
 * Only while the row still holds the hash that was verified, so a concurrent change is never undone.
 */
export async function updatePasswordHash(
  db: Db,
  orgId: string,
  userId: string,
  change: { from: string; to: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: change.to, updated_at: new Date() })
    .where('org_id', '=', orgId)
    .where('id', '=', userId)
    .where('password_hash', '=', change.from)
    .execute();
}
