import type { Insertable, Selectable } from 'kysely';

export interface DeliveryAttemptsTable {
  id: string;
  event_id: string;
  org_id: string;
  target_id: string;
  attempt_number: number;
  status_code: number | null;
  duration_ms: number;
  attempted_at: Date;
  response_body: string | null;
  error: string | null;
  a2a_task_id: string | null;
  a2a_task_state: string | null;
  /** The answer's Retry-After header (429 or 503), as sent. */
  retry_after: string | null;
  /** When the next attempt is due, for an attempt that left its item RETRYING. */
  next_attempt_at: Date | null;
}
export type DeliveryAttempt = Selectable<DeliveryAttemptsTable>;
export type NewDeliveryAttempt = Insertable<DeliveryAttemptsTable>;
