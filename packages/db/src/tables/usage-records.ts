import type { Generated, Insertable, Selectable } from 'kysely';
import type { TargetKind } from '@evds/domain';

export interface UsageRecordsTable {
  id: Generated<string>;
  org_id: string;
  item_id: string;
  item_kind: TargetKind;
  created_at: Generated<Date>;
  reported_at: Date | null;
}
export type UsageRecord = Selectable<UsageRecordsTable>;
export type NewUsageRecord = Insertable<UsageRecordsTable>;
