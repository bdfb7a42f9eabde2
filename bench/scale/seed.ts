// Seeds events in SQL for the scale benchmarks: generate_series in chunks, each chunk one statement
// that writes the events, one delivery attempt each (none for QUEUED) and one usage record each, as
// ingestion and delivery would have. Rows are written in time order (as they arrive in production),
// ids are made like newId() (12 hex digits of created_at in ms, then 20 random hex digits), and the
// rollup tables are left to their triggers, so every total stays exact.
import { ensurePartitions, type Db } from '@evds/db';
import { sql } from 'kysely';

export const EVENT_TYPES = [
  'order.created',
  'order.paid',
  'order.shipped',
  'order.cancelled',
  'invoice.created',
  'invoice.paid',
  'customer.created',
  'customer.updated',
  'refund.created',
  'subscription.renewed',
];

export interface SeedPlan {
  /** The measured organization (every row it does not give another one) and its targets. */
  main: { orgId: string; targets: string[] };
  /** Other organizations: every 11th row goes to one of them in turn (10% on top of the main's). */
  others: { orgId: string; targets: string[] }[];
  /** Events of the main organization. */
  events: number;
  /** created_at spreads evenly over [from, to). */
  from: Date;
  to: Date;
  /** Events created at or after it keep their payload (payload retention dropped the older ones). */
  payloadSince: Date;
  chunk: number;
  /** The first generate_series value, so several seedings of one database make distinct rows. */
  firstRow?: number;
}

export interface SeedResult {
  rows: number;
  mainRows: number;
  seconds: number;
  /** A spread of the main organization's event ids, and a few of its correlation ids. */
  sampleIds: string[];
  correlationIds: string[];
}

/** Total rows for `events` of the main organization: 10% more for the others when there are any. */
export const totalRows = (plan: Pick<SeedPlan, 'events' | 'others'>) =>
  plan.others.length > 0 ? Math.round((plan.events * 11) / 10) : plan.events;

export async function seedEvents(db: Db, plan: SeedPlan, log?: (m: string) => void): Promise<SeedResult> {
  const total = totalRows(plan);
  const first = plan.firstRow ?? 0;
  const stepMs = (plan.to.getTime() - plan.from.getTime()) / total;
  const mainTargets = plan.main.targets.length;
  const otherTargets = plan.others[0]?.targets.length ?? 0;
  if (plan.others.some((o) => o.targets.length !== otherTargets))
    throw new Error('every other organization needs the same number of targets');
  const orgIds = [plan.main.orgId, ...plan.others.map((o) => o.orgId)];
  const targets = [...plan.main.targets, ...plan.others.flatMap((o) => o.targets)];
  // A sample id every `sampleEvery` rows: about 2,000 over the whole seeding.
  const sampleEvery = Math.max(1, Math.floor(total / 2000));
  await ensurePartitions(db, plan.from, new Date(plan.to.getTime() + 7 * 86_400_000));

  const started = performance.now();
  const result: SeedResult = { rows: 0, mainRows: 0, seconds: 0, sampleIds: [], correlationIds: [] };
  for (let lo = 0; lo < total; lo += plan.chunk) {
    const hi = Math.min(total, lo + plan.chunk);
    const r = await sql<{ main: number; ids: string[] | null; correlations: string[] | null }>`
      with base as materialized (
        select g,
               case when ${plan.others.length}::int > 0 and g % 11 = 10
                    then 1 + (g / 11) % greatest(${plan.others.length}::int, 1) else 0 end as o,
               random() as rt, random() as rs, random() as rd, random() as rc, random() as re,
               ${plan.from}::timestamptz + ((g - ${first}::bigint) + random()) * ${stepMs}::float8 * interval '1 millisecond' as created_at
          from generate_series(${first + lo}::bigint, ${first + hi - 1}::bigint) as g
      ), src as materialized (
        select b.*,
               lpad(to_hex(floor(extract(epoch from b.created_at) * 1000)::bigint), 12, '0')
                 || substr(md5(random()::text || b.g::text), 1, 20) as id,
               (${orgIds}::text[])[1 + b.o] as org_id,
               (${targets}::text[])[case when b.o = 0
                   then 1 + floor(power(b.rt, 2) * ${mainTargets}::int)::int
                   else ${mainTargets}::int + (b.o - 1) * ${otherTargets}::int + 1 + floor(b.rt * ${otherTargets}::int)::int end] as target_id,
               (${EVENT_TYPES}::text[])[1 + floor(b.re * ${EVENT_TYPES.length}::int)::int] as event_type,
               case when b.rs < 0.92 then 'DELIVERED' when b.rs < 0.955 then 'FAILED'
                    when b.rs < 0.975 then 'REPLAYED' when b.rs < 0.985 then 'EXPIRED'
                    when b.rs < 0.995 then 'RETRYING' else 'QUEUED' end as status,
               case when b.g % 50 = 0 then 'corr-' || (b.g / 200)::text end as correlation_id,
               b.created_at + (40 + b.rc * 400) * interval '1 millisecond' as attempted_at
          from base b
      ), att as materialized (
        select s.*,
               case s.status when 'DELIVERED' then 200 when 'FAILED' then (case when s.rc < 0.5 then 400 else 500 end)
                             when 'REPLAYED' then 500 when 'RETRYING' then 503 end as status_code,
               case when s.status = 'EXPIRED' then 10000 else (15 + 800 * power(s.rd, 4))::int end as duration_ms,
               '{"event_type":"' || s.event_type || '","order":{"id":' || s.g::text || ',"items":[{"sku":"A-'
                 || (s.g % 97)::text || '","qty":' || (1 + s.g % 5)::text || '}],"total":"' || (s.g % 500)::text
                 || '.90"},"note":"' || repeat('x', 60 + (s.g % 200)::int) || '"}' as body
          from src s
      ), e as (
        insert into events (id, org_id, target_id, target_kind, event_type, correlation_id, status, payload,
                            payload_size, attempt_count, next_attempt_at, last_attempt_at, delivered_at,
                            final_reason, request_id, created_at, updated_at)
        select id, org_id, target_id, 'webhook', event_type, correlation_id, status,
               case when created_at >= ${plan.payloadSince}::timestamptz then convert_to(body, 'UTF8') end,
               octet_length(body),
               case when status = 'QUEUED' then 0 else 1 end,
               case status when 'QUEUED' then created_at when 'RETRYING' then now() + (1 + rc * 5) * interval '1 hour' end,
               case when status <> 'QUEUED' then attempted_at end,
               case when status = 'DELIVERED' then attempted_at + duration_ms * interval '1 millisecond' end,
               case status when 'FAILED' then 'the target answered ' || status_code::text
                           when 'EXPIRED' then 'retry window expired' end,
               md5(id || 'request'),
               created_at,
               case when status = 'QUEUED' then created_at else attempted_at + duration_ms * interval '1 millisecond' end
          from att
      ), a as (
        insert into delivery_attempts (id, event_id, org_id, target_id, attempt_number, status_code, duration_ms,
                                       attempted_at, response_body, error)
        select 'da_' || lpad(to_hex(floor(extract(epoch from attempted_at) * 1000)::bigint), 12, '0')
                 || substr(md5(random()::text || id), 1, 20),
               id, org_id, target_id, 1, status_code, duration_ms, attempted_at,
               case when status_code = 200 then 'ok' when status_code is not null then '{"error":"unavailable"}' end,
               case when status = 'EXPIRED' then 'timed out after 10000 ms' end
          from att where status <> 'QUEUED'
      ), u as (
        insert into usage_records (org_id, item_id, item_kind, created_at, reported_at)
        select org_id, id, 'webhook', created_at,
               case when created_at < now() - interval '1 day' then created_at + interval '1 hour' end
          from att
      )
      select count(*) filter (where o = 0)::int as main,
             array_agg(id order by g) filter (where o = 0 and g % ${sampleEvery}::int = 0) as ids,
             (array_agg(correlation_id order by g) filter (where o = 0 and correlation_id is not null))[1:3] as correlations
        from att`.execute(db);
    const row = r.rows[0];
    result.rows = hi;
    result.mainRows += row?.main ?? 0;
    result.sampleIds.push(...(row?.ids ?? []));
    if (result.correlationIds.length < 20) result.correlationIds.push(...(row?.correlations ?? []));
    const seconds = (performance.now() - started) / 1000;
    log?.(
      `seeded ${hi.toLocaleString('en')}/${total.toLocaleString('en')} events (${((100 * hi) / total).toFixed(0)}%), ` +
        `${Math.round(hi / seconds).toLocaleString('en')} events/s (each with its attempt and usage record)`,
    );
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}
