// The shapes of the API answers the pages read, taken from the OpenAPI document the API serves through
// the typed client's generated schema (packages/client: its schema test fails when the schema drifts
// from the document), so an answer that changes shape fails this app's typecheck. Records use Unix
// seconds, except event records and their attempts, which use ISO 8601 strings.
import type { Answer } from '@evds/client/types';

export type Target = Answer<'/api/v1/targets'>['targets'][number];
export type TargetKind = Target['kind'];
export type TargetHealth = Target['health'];
export type WebhookTarget = Extract<Target, { kind: 'webhook' }>;
export type MailboxTarget = Extract<Target, { kind: 'mailbox' }>;
export type A2aTarget = Extract<Target, { kind: 'a2a' }>;

/** The legacy endpoint view of a webhook target: the only place its event-type filter is read. */
export type Endpoint = Answer<'/api/v1/endpoints/{id}'>['endpoint'];

/**
 * Every member of a union of strings, in the order the pages show them: a member missing from the list
 * or not in the union fails the typecheck.
 */
export const allOf =
  <T extends string>() =>
  <const L extends readonly T[]>(list: L & ([T] extends [L[number]] ? unknown : never)): L =>
    list;

export type EventSummary = Answer<'/api/v1/events'>['events'][number];
export type EventStatus = EventSummary['status'];
export const eventStatuses = allOf<EventStatus>()([
  'QUEUED',
  'DELIVERED',
  'FAILED',
  'RETRYING',
  'EXPIRED',
  'REPLAYED',
]);
export type EventDetail = Answer<'/api/v1/events/{id}'>;
export type Attempt = EventDetail['delivery_attempts'][number];

export type Stats = Answer<'/api/v1/stats'>;
export type Timeseries = Answer<'/api/v1/stats/timeseries'>;
export type TimeseriesBucket = Timeseries['buckets'][number];
export type Usage = Answer<'/api/v1/usage'>['usage'];
export type BillingStatus = Answer<'/api/v1/billing'>;
export type Organization = Answer<'/api/v1/orgs'>['org'];
export type Me = Answer<'/api/v1/auth/me'>;

/** The answer of POST /api/v1/targets/:id/test. */
export type TestEventResult = Answer<'/api/v1/targets/{id}/test', 'post'>;

/** The dashboard service's own GET /config (not an API route). */
export interface AppConfig {
  inbox: boolean;
  inbox_url: string | null;
  environment: 'development' | 'test' | 'production';
}
