import { sql } from 'kysely';
import type { Db } from '../database.ts';

export interface SessionAuth {
  session_id: string;
  user_id: string;
  org_id: string;
  expires_at: Date;
}

/**
 * Creates a session and evicts the user's oldest ones beyond `maxPerUser`, in one transaction
 * serialised on the user row, so concurrent logins cannot leave more than the limit.
 */
export async function createSession(
  db: Db,
  s: { id: string; token_hash: string; user_id: string; org_id: string; expires_at: Date },
  maxPerUser: number,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.selectFrom('users').select('id').where('id', '=', s.user_id).forUpdate().execute();
    await tx.insertInto('sessions').values(s).execute();
    await tx
      .deleteFrom('sessions')
      .where('user_id', '=', s.user_id)
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', sql<Date>`now()`),
          eb(
            'id',
            'not in',
            eb
              .selectFrom('sessions')
              .select('id')
              .where('user_id', '=', s.user_id)
              .where('expires_at', '>', sql<Date>`now()`)
              .orderBy('created_at', 'desc')
              .orderBy('id', 'desc')
              .limit(maxPerUser),
          ),
        ]),
      )
      .execute();
  });
}

/** The live session for a token hash; checked on every request (no cache may outlive a revoke). */
export async function findSession(db: Db, tokenHash: string): Promise<SessionAuth | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id as session_id', 'user_id', 'org_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const r = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}
