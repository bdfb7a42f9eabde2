// What the event-store suites share: events written straight into Postgres (ids made as newId makes
// them, from their creation time), from several connections at once so the counters' shards are all
// used, and the exact answers the counters must give, counted from the rows themselves.
import type { Db } from '@evds/db';
import { sql } from 'kysely';

export const statuses = ['QUEUED', 'DELIVERED', 'FAILED', 'RETRYING', 'EXPIRED', 'REPLAYED'] as const;

export interface Seed {
  orgId: string;
  targets: string[];
  /** How many events, and how long ago the oldest was made (they spread evenly up to now). */
  n: number;
  spanSeconds: number;
  /** Shift every creation time back by this much (to make events past retention). */
  agoSeconds?: number;
}

/** The seed's insert, for one slice of its events: statuses, types and correlation ids vary by number. */
function insertSlice(s: Seed, from: number, to: number) {
  const targets = `array[${s.targets.map((t) => `'${t}'`).join(',')}]`;
  const statusList = `array[${statuses.map((x) => `'${x}'`).join(',')}]`;
  return `
    insert into events (id, org_id, target_id, target_kind, event_type, correlation_id, status, payload, payload_size, created_at)
    select lpad(to_hex((extract(epoch from t) * 1000)::bigint), 12, '0') || substr(md5(random()::text || g::text), 1, 20),
           '${s.orgId}', (${targets})[1 + g % ${s.targets.length}], 'webhook',
           case when g % 7 = 0 then null else 'type.' || (g % 3) end,
           case when g % 11 = 0 then 'corr-' || (g % 2) end,
           (${statusList})[1 + (g * 7 + g / 5) % 6], convert_to('{}', 'UTF8'), 2, t
      from generate_series(${from}, ${to - 1}) g,
           lateral (select now() - make_interval(secs => ${s.agoSeconds ?? 0} + ${s.spanSeconds} * (1 - g::float8 / ${s.n}))) x(t)`;
}

/**
 * Seeds in `parallel` slices at once: the pool gives each its own connection (its own backend, so
 * its own counter shard).
 */
export async function seedEvents(db: Db, s: Seed, parallel = 4): Promise<void> {
  const step = Math.ceil(s.n / parallel);
  await Promise.all(
    Array.from({ length: parallel }, (_, i) =>
      sql.raw(insertSlice(s, i * step, Math.min(s.n, (i + 1) * step))).execute(db),
    ),
  );
}

export interface Filter {
  endpoint_id?: string;
  status?: string;
  event_type?: string;
  correlation_id?: string;
}

/** The exact number of the org's events from `visibleFrom` on that match the filter, from the rows. */
export async function countRows(db: Db, orgId: string, f: Filter, visibleFrom: Date): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from events
     where org_id = ${orgId} and created_at >= ${visibleFrom}
       ${f.endpoint_id ? sql`and target_id = ${f.endpoint_id}` : sql``}
       ${f.status ? sql`and status = ${f.status}` : sql``}
       ${f.event_type ? sql`and event_type = ${f.event_type}` : sql``}
       ${f.correlation_id ? sql`and correlation_id = ${f.correlation_id}` : sql``}`.execute(db);
  return r.rows[0]?.n ?? -1;
}

/** Every filter the dashboard uses, and a few it does not, over these targets. */
export function filtersOf(targets: string[]): Filter[] {
  const [a = '', b = ''] = targets;
  return [
    {},
    { endpoint_id: a },
    { endpoint_id: b },
    ...statuses.map((status) => ({ status })),
    { event_type: 'type.1' },
    { event_type: 'type.none' },
    { correlation_id: 'corr-1' },
    { endpoint_id: a, status: 'DELIVERED' },
    { endpoint_id: b, status: 'RETRYING' },
    { endpoint_id: a, event_type: 'type.2' },
    { status: 'FAILED', event_type: 'type.0' },
    { endpoint_id: a, status: 'QUEUED', event_type: 'type.1', correlation_id: 'corr-1' },
  ];
}

export const query = (f: Filter): string => new URLSearchParams(f as Record<string, string>).toString();

/** 00:00 UTC of the day of now - retention: the first instant a read shows. */
export function boundary(retentionSeconds: number): Date {
  const t = new Date(Date.now() - retentionSeconds * 1000);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
}
