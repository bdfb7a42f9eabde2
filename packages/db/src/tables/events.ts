import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { EventStatus, TargetKind } from '@evds/domain';

export interface EventsTable {
  id: string;
  org_id: string;
  target_id: string;
  target_kind: TargetKind;
  event_type: string | null;
  correlation_id: string | null;
  status: EventStatus;
  source_event_id: string | null;
  payload: Buffer | null;
  payload_size: number;
  attempt_count: Generated<number>;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  final_reason: string | null;
  request_id: string | null;
  /** The delivery job that carries the first attempt with other items' (jobGroupId); null: its own job. */
  job_group: number | null;
  /** The bulk recovery that made this replay (null for every other event). */
  recovery_id: string | null;
  /** Sent by POST /api/v1/targets/:id/test: delivered like any event, but no usage record. */
  test: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type Event = Selectable<EventsTable>;
export type NewEvent = Insertable<EventsTable>;
export type EventUpdate = Updateable<EventsTable>;
