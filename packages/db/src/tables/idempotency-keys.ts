import type { Generated, Insertable, Selectable } from 'kysely';

export interface IdempotencyKeysTable {
  org_id: string;
  target_id: string;
  key: string;
  body_hash: string;
  item_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
}
export type IdempotencyKey = Selectable<IdempotencyKeysTable>;
export type NewIdempotencyKey = Insertable<IdempotencyKeysTable>;
