// The shapes of the API answers the pages read, as packages/*/src/views.ts define them. Records use
// Unix seconds, except event records and their attempts, which use ISO 8601 strings.

export type TargetKind = 'webhook' | 'mailbox' | 'a2a';

export interface TargetHealth {
  status: 'healthy' | 'failing' | 'unknown';
  failing_since: number | null;
  last_success_at: number | null;
  last_failure_at: number | null;
  consecutive_failures: number;
  circuit: 'closed' | 'open' | 'half_open' | null;
  next_probe_at: number | null;
}

interface TargetBase {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  created_at: number;
  updated_at: number;
  disabled_reason: string | null;
  health: TargetHealth;
}

export interface WebhookTarget extends TargetBase {
  kind: 'webhook';
  url: string;
  signing_scheme: string;
  has_previous_signing_secret: boolean;
}

export interface MailboxTarget extends TargetBase {
  kind: 'mailbox';
}

export interface A2aTarget extends TargetBase {
  kind: 'a2a';
  url: string | null;
  agent_card_url: string | null;
  interface: { url: string; binding: string; version: string; tenant?: string } | null;
  card_fetched_at: number | null;
  auth: { type: 'none' | 'bearer' };
}

export type Target = WebhookTarget | MailboxTarget | A2aTarget;

/** The legacy endpoint view of a webhook target: the only place its event-type filter is read. */
export interface Endpoint {
  id: string;
  /** A JSON-encoded array of strings; "[]" receives every type. */
  event_types: string;
}

export const eventStatuses = ['QUEUED', 'DELIVERED', 'FAILED', 'RETRYING', 'EXPIRED', 'REPLAYED'] as const;
export type EventStatus = (typeof eventStatuses)[number];

export interface EventSummary {
  id: string;
  endpoint_id: string;
  event_type: string | null;
  status: EventStatus;
  created_at: string;
  test?: boolean;
}

export interface Attempt {
  id: string;
  attempt_number: number;
  status_code: number | null;
  duration_ms: number;
  attempted_at: string;
  response_body: string | null;
  error: string | null;
  a2a_task_id: string | null;
  a2a_task_state: string | null;
  retry_after: string | null;
  next_attempt_at: string | null;
}

export interface EventDetail extends EventSummary {
  org_id: string;
  target_id: string;
  kind: 'webhook' | 'a2a';
  correlation_id: string | null;
  source_event_id: string | null;
  payload: unknown;
  payload_size: number;
  attempt_count: number;
  next_attempt_at: string | null;
  final_reason: string | null;
  updated_at: string;
  delivery_attempts: Attempt[];
}

export interface Stats {
  window: string;
  since: number;
  events: { total: number; by_status: Record<string, number> };
  attempts: { total: number; succeeded: number; failed: number };
  success_rate: number | null;
  latency_ms: { p50: number | null; p95: number | null; p99: number | null };
  mailboxes: { UNREAD: number; CLAIMED: number; ACKNOWLEDGED: number; EXPIRED: number };
}

export interface TimeseriesBucket {
  start: number;
  succeeded: number;
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

export interface Timeseries {
  window: string;
  bucket: string;
  bucket_seconds: number;
  since: number;
  buckets: TimeseriesBucket[];
}

export interface Usage {
  period_start: number;
  period_end: number;
  accepted_events: number;
  estimated_units: number;
  estimated_cents: number;
  pending_meter_events: number;
}

export interface BillingStatus {
  status: 'pending' | 'active' | 'grace' | 'suspended' | 'exempt';
  billing_enabled: boolean;
  grace_ends_at: number | null;
  has_payment_method: boolean;
  currency: string;
  price_cents: number;
  unit_size: number;
}

export interface Organization {
  id: string;
  name: string;
  slug: string;
  billing_status: BillingStatus['status'];
  billing_grace_ends_at: number | null;
  created_at: number;
}

export interface AppConfig {
  inbox: boolean;
  inbox_url: string | null;
  environment: 'development' | 'test' | 'production';
}

export interface Me {
  user: { id: string; email: string; name: string; org_id: string; created_at: number } | null;
  org: Organization;
}

/** The answer of POST /api/v1/targets/:id/test. */
export interface TestEventResult {
  id: string;
  status: string;
  test: true;
  kind: TargetKind;
}
