import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { TargetKind } from '@evds/domain';

/** The A2A interface picked from a target's Agent Card. */
export interface A2aInterface {
  url: string;
  binding: string;
  version: string;
  tenant?: string;
}

type Json<T> = ColumnType<T, string, string>;

export interface TargetsTable {
  id: string;
  org_id: string;
  kind: TargetKind;
  name: string;
  description: string | null;
  enabled: Generated<boolean>;
  url: string | null;
  event_types: ColumnType<string[], string | undefined, string>;
  max_payload_bytes: Generated<number>;
  max_retries: Generated<number>;
  retry_interval_seconds: Generated<number>;
  signing_secret: string | null;
  previous_signing_secret: string | null;
  verify_inbound_signatures: Generated<boolean>;
  inbound_secret: string | null;
  agent_card_url: string | null;
  a2a_interface: Json<A2aInterface> | null;
  a2a_card: Json<unknown> | null;
  a2a_card_etag: string | null;
  a2a_card_fetched_at: Date | null;
  a2a_auth_type: 'none' | 'bearer' | null;
  a2a_auth_token: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: Date | null;
  /** The first failed attempt after the last success; null while the target is not failing. */
  failing_since: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  consecutive_failures: Generated<number>;
  /** Why the service disabled the target (auto-disable); null when enabled or disabled by hand. */
  disabled_reason: string | null;
}
export type Target = Selectable<TargetsTable>;
export type NewTarget = Insertable<TargetsTable>;
export type TargetUpdate = Updateable<TargetsTable>;
