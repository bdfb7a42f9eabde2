import type { Generated, Insertable, Selectable } from 'kysely';

export interface ApiKeysTable {
  id: string;
  org_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  created_by_user_id: string | null;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}
export type ApiKey = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
