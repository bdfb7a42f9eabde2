// Reconciliation of a fault run: what the producers were told (every request's outcome) against what
// Postgres holds and what the receiver got. A 202 must end delivered (a webhook DELIVERED and answered
// 2xx at least once; a mailbox message stored); an answered non-202 must have left no item and no usage
// record; delivery is at least once, so duplicates are counted, never required to be 0.
import type { Db } from '@evds/db';
import { sql } from 'kysely';
import type { DeliveryTally } from './faults.ts';
import type { RequestOutcome } from './load.ts';

export interface Facts {
  events: Map<string, { status: string; correlationId: string | null }>;
  messages: Map<string, { correlationId: string | null }>;
  /** Usage records per item id. */
  usage: Map<string, number>;
  /** Correlation id -> item id, over events and mailbox messages. */
  itemByCorrelation: Map<string, string>;
  /** Correlation ids of the items that have a usage record (usage_records joined to their items). */
  usageCorrelations: Set<string>;
  /** Usage records whose item does not exist. */
  orphanUsage: number;
  tally: DeliveryTally;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until no event of the organization is QUEUED or RETRYING (or the time is up); returns how many still are. */
export async function waitForSettled(db: Db, orgId: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await sql<{ pending: number }>`
      select count(*)::int as pending from events
      where org_id = ${orgId} and status in ('QUEUED', 'RETRYING')`
      .execute(db)
      .then(
        (r) => r.rows[0],
        () => undefined,
      );
    const pending = row?.pending ?? -1;
    if (pending === 0 || Date.now() > deadline) return pending;
    await sleep(500);
  }
}

export async function collectFacts(db: Db, orgId: string, tally: DeliveryTally): Promise<Facts> {
  const events = new Map<string, { status: string; correlationId: string | null }>();
  const messages = new Map<string, { correlationId: string | null }>();
  const itemByCorrelation = new Map<string, string>();
  for (const e of await db
    .selectFrom('events')
    .select(['id', 'status', 'correlation_id'])
    .where('org_id', '=', orgId)
    .execute()) {
    events.set(e.id, { status: e.status, correlationId: e.correlation_id });
    if (e.correlation_id) itemByCorrelation.set(e.correlation_id, e.id);
  }
  for (const m of await db
    .selectFrom('mailbox_messages')
    .select(['id', 'correlation_id'])
    .where('org_id', '=', orgId)
    .execute()) {
    messages.set(m.id, { correlationId: m.correlation_id });
    if (m.correlation_id) itemByCorrelation.set(m.correlation_id, m.id);
  }
  const usage = new Map<string, number>();
  for (const u of await db
    .selectFrom('usage_records')
    .select('item_id')
    .where('org_id', '=', orgId)
    .execute())
    usage.set(u.item_id, (usage.get(u.item_id) ?? 0) + 1);
  const joined = await sql<{ correlation_id: string | null }>`
    select e.correlation_id from usage_records u join events e on e.id = u.item_id where u.org_id = ${orgId}
    union all
    select m.correlation_id from usage_records u join mailbox_messages m on m.id = u.item_id where u.org_id = ${orgId}`.execute(
    db,
  );
  const usageCorrelations = new Set(joined.rows.flatMap((r) => (r.correlation_id ? [r.correlation_id] : [])));
  let orphanUsage = 0;
  for (const id of usage.keys()) if (!events.has(id) && !messages.has(id)) orphanUsage++;
  return { events, messages, usage, itemByCorrelation, usageCorrelations, orphanUsage, tally };
}

export interface Figures {
  sent: number;
  /** 202 answers, idempotent replays included. */
  accepted: number;
  replayed: number;
  unavailable: number;
  /** Other HTTP answers (neither 202 nor 503). */
  other: number;
  status500: number;
  /** No answer: connection refused or cut by a killed replica, time-out. */
  unanswered: number;
  /** Unanswered requests whose item was committed anyway (the replica died after the commit). */
  ambiguous: number;
  /** Distinct items the 202 answers named. */
  items: number;
  delivered: number;
  /** 2xx deliveries beyond the first per webhook-id. */
  duplicates: number;
  /** Receiver answers that were injected failures (retried by the worker). */
  retried: number;
  lost: number;
  /** Answered non-202 requests that left an item or a usage record. */
  leaked: number;
  /** Accepted items without exactly one usage record. */
  usageErrors: number;
  /** Idempotency-Key groups whose 202 answers named different items. */
  idempotencyErrors: number;
}

export function isDelivered(facts: Facts, id: string): boolean {
  if (facts.messages.has(id)) return true;
  return facts.events.get(id)?.status === 'DELIVERED' && (facts.tally.ok.get(id) ?? 0) > 0;
}

export function figuresOf(outcomes: RequestOutcome[], facts: Facts): Figures {
  const f: Figures = {
    sent: outcomes.length,
    accepted: 0,
    replayed: 0,
    unavailable: 0,
    other: 0,
    status500: 0,
    unanswered: 0,
    ambiguous: 0,
    items: 0,
    delivered: 0,
    duplicates: 0,
    retried: 0,
    lost: 0,
    leaked: 0,
    usageErrors: 0,
    idempotencyErrors: 0,
  };
  const items = new Set<string>();
  const idemIds = new Map<string, string>();
  for (const o of outcomes) {
    if (o.status === 202 && o.id) {
      f.accepted++;
      if (o.replayed) f.replayed++;
      items.add(o.id);
      if (o.idempotencyKey) {
        const seen = idemIds.get(o.idempotencyKey);
        if (seen === undefined) idemIds.set(o.idempotencyKey, o.id);
        else if (seen !== o.id) f.idempotencyErrors++;
      }
      continue;
    }
    if (o.status === 0) {
      f.unanswered++;
      if (facts.itemByCorrelation.has(o.correlationId)) f.ambiguous++;
      continue;
    }
    if (o.status === 503) f.unavailable++;
    else f.other++;
    if (o.status >= 500 && o.status !== 503) f.status500++;
    if (facts.itemByCorrelation.has(o.correlationId) || facts.usageCorrelations.has(o.correlationId))
      f.leaked++;
  }
  f.items = items.size;
  for (const id of items) {
    if (isDelivered(facts, id)) f.delivered++;
    else f.lost++;
    const ok = facts.tally.ok.get(id) ?? 0;
    if (ok > 1) f.duplicates += ok - 1;
    f.retried += facts.tally.failed.get(id) ?? 0;
    if ((facts.usage.get(id) ?? 0) !== 1) f.usageErrors++;
  }
  return f;
}

/** Every committed item of the organization, 202 or not: pending ones and items without exactly one usage record. */
export function storeChecks(facts: Facts): {
  undelivered: string[];
  usageErrors: number;
  orphanUsage: number;
} {
  const undelivered: string[] = [];
  for (const [id, e] of facts.events) if (!isDelivered(facts, id)) undelivered.push(`${id} ${e.status}`);
  let usageErrors = 0;
  for (const id of [...facts.events.keys(), ...facts.messages.keys()])
    if ((facts.usage.get(id) ?? 0) !== 1) usageErrors++;
  return { undelivered, usageErrors, orphanUsage: facts.orphanUsage };
}

/** Requests sent after `from` and answered before `to` (the database was down all along). */
export function sentAndAnsweredWithin(
  outcomes: RequestOutcome[],
  from: number,
  to: number,
): RequestOutcome[] {
  return outcomes.filter((o) => o.sentAt >= from && o.endedAt <= to);
}

export function formatFigures(label: string, f: Figures): string {
  return (
    `${label}: sent ${f.sent}, 202 ${f.accepted} (replayed ${f.replayed}), 503 ${f.unavailable}, ` +
    `other ${f.other}, unanswered ${f.unanswered} (committed ${f.ambiguous}), items ${f.items}, ` +
    `delivered ${f.delivered}, duplicates ${f.duplicates}, retried ${f.retried}, lost ${f.lost}, ` +
    `leaked ${f.leaked}, usage errors ${f.usageErrors}, idempotency errors ${f.idempotencyErrors}`
  );
}

/** Counts of the answers that were neither 202 nor 503, by status and error (for a failure's report). */
export function otherAnswers(outcomes: RequestOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    if (o.status === 202 || o.status === 503) continue;
    const key = o.status === 0 ? `no answer (${o.error})` : `${o.status} ${o.error ?? ''}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n} × ${k}`).join('; ') || 'none';
}
