import type { Generated, Insertable, Selectable } from 'kysely';

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  org_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
}
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
