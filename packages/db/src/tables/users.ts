import type { Generated, Insertable, Selectable } from 'kysely';

export interface UsersTable {
  id: string;
  org_id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
