import type { TargetKind } from '@evds/domain';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../database.ts';
import type { Target, TargetUpdate } from '../tables/index.ts';

/**
 * Target columns safe to show: never a secret column (signing, previous, inbound, a2a token). Secrets
 * leave this file only through the functions named for them, decrypted for the code that signs.
 */
export const targetColumns = [
  'id',
  'org_id',
  'kind',
  'name',
  'description',
  'enabled',
  'url',
  'event_types',
  'max_payload_bytes',
  'max_retries',
  'retry_interval_seconds',
  'verify_inbound_signatures',
  'agent_card_url',
  'a2a_interface',
  'a2a_auth_type',
  'a2a_card_fetched_at',
  'created_at',
  'updated_at',
  'disabled_reason',
  'failing_since',
  'last_success_at',
  'last_failure_at',
  'consecutive_failures',
] as const;

export type PublicTarget = Pick<Target, (typeof targetColumns)[number]> & {
  has_previous_signing_secret: boolean;
};

/** Narrows a lookup to one kind: the legacy endpoint routes see webhook targets only. */
export interface TargetFilter {
  kind?: TargetKind;
}

export const hasPrevious = sql<boolean>`previous_signing_secret is not null`.as(
  'has_previous_signing_secret',
);

/** Live (not deleted) targets of one organization, optionally of one kind. */
export function live(db: Db, orgId: string, filter: TargetFilter) {
  let q = db.selectFrom('targets').where('org_id', '=', orgId).where('deleted_at', 'is', null);
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  return q;
}

export interface NewTargetInput {
  id: string;
  org_id: string;
  kind: TargetKind;
  name: string;
  description?: string | null;
  url?: string | null;
  event_types?: string[];
  /** A SecretBox envelope, never the plain secret. */
  signing_secret?: string | null;
}

export async function createTarget(db: Db, t: NewTargetInput): Promise<PublicTarget> {
  return db
    .insertInto('targets')
    .values({
      id: t.id,
      org_id: t.org_id,
      kind: t.kind,
      name: t.name,
      description: t.description ?? null,
      url: t.url ?? null,
      event_types: JSON.stringify(t.event_types ?? []),
      signing_secret: t.signing_secret ?? null,
    })
    .returning(targetColumns)
    .returning(hasPrevious)
    .executeTakeFirstOrThrow();
}

export type CappedCreate<T> = { ok: true; created: T } | { ok: false; reason: 'limit' };

/**
 * Runs `insert` (given the transaction) unless the organization already holds `cap` live targets of
 * any kind. As for API keys, the organization row is locked first, so concurrent creations in one
 * workspace queue behind each other and cannot pass the cap together. NO KEY UPDATE rather than
 * UPDATE: it still serialises creators, but not the foreign-key checks of items being ingested for
 * the organization meanwhile.
 */
export async function createWithinTargetCap<T>(
  db: Db,
  orgId: string,
  cap: number,
  insert: (tx: Db) => Promise<T>,
): Promise<CappedCreate<T>> {
  return db.transaction().execute(async (tx) => {
    await tx.selectFrom('organizations').select('id').where('id', '=', orgId).forNoKeyUpdate().execute();
    if ((await countLiveTargets(tx, orgId)) >= cap) return { ok: false, reason: 'limit' } as const;
    return { ok: true, created: await insert(tx) } as const;
  });
}

/** Live targets of every kind: what the per-workspace cap counts. */
export async function countLiveTargets(db: Db, orgId: string): Promise<number> {
  const { n } = await live(db, orgId, {})
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return n;
}

/** Oldest first; deleted targets are never listed. */
export async function listTargets(db: Db, orgId: string, filter: TargetFilter = {}): Promise<PublicTarget[]> {
  return live(db, orgId, filter)
    .select(targetColumns)
    .select(hasPrevious)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export type TargetPage =
  { outcome: 'listed'; targets: PublicTarget[]; nextCursor: string | null } | { outcome: 'bad_cursor' };

/**
 * One page of listTargets' order, after the target `after` when given. Ids are random, so the cursor
 * is the position (created_at, id) of that target, compared in Postgres (microseconds). The cursor
 * may name a target deleted since the previous page: its row stays, so its position does too.
 */
export async function listTargetPage(
  db: Db,
  orgId: string,
  page: { limit: number; after?: string },
  filter: TargetFilter = {},
): Promise<TargetPage> {
  const { after } = page;
  if (after !== undefined) {
    const cursor = await db
      .selectFrom('targets')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', after)
      .executeTakeFirst();
    if (!cursor) return { outcome: 'bad_cursor' };
  }
  let q = live(db, orgId, filter).select(targetColumns).select(hasPrevious);
  if (after !== undefined)
    q = q.where(
      sql<SqlBool>`(created_at, id) > (select c.created_at, c.id from targets c where c.id = ${after})`,
    );
  const rows = await q
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
  const targets = rows.slice(0, page.limit);
  const more = rows.length > page.limit;
  return { outcome: 'listed', targets, nextCursor: more ? (targets.at(-1)?.id ?? null) : null };
}

/** A live target of the organization; another organization's id and a deleted id give undefined. */
export async function getTarget(
  db: Db,
  orgId: string,
  id: string,
  filter: TargetFilter = {},
): Promise<PublicTarget | undefined> {
  return live(db, orgId, filter)
    .select(targetColumns)
    .select(hasPrevious)
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface TargetPatch {
  name?: string;
  description?: string | null;
  enabled?: boolean;
  url?: string;
  event_types?: string[];
  /**
   * Inbound signature verification. Turning it on stores the given envelope, but only when it was
   * off: repeating `true` keeps the secret producers already hold.
   */
  inbound?: { enabled: true; secretEnvelope: string } | { enabled: false };
}

export interface TargetUpdateResult {
  target: PublicTarget;
  /** True when this update turned inbound verification on and stored the new inbound secret. */
  inboundSecretIssued: boolean;
}

/** Partial update of a live target; an empty patch changes nothing (not even updated_at). */
export async function updateTarget(
  db: Db,
  orgId: string,
  id: string,
  patch: TargetPatch,
  filter: TargetFilter = {},
): Promise<TargetUpdateResult | undefined> {
  return db.transaction().execute(async (tx) => {
    const current = await live(tx, orgId, filter)
      .select(['id', 'verify_inbound_signatures', 'enabled'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return undefined;
    const set: TargetUpdate = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    // Re-enabling starts afresh: the reason it was disabled and the failing run that led there go, so
    // auto-disable does not strike again at once (the route also resets the circuit in Redis).
    if (patch.enabled === true && !current.enabled) {
      set.disabled_reason = null;
      set.failing_since = null;
      set.consecutive_failures = 0;
    }
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.event_types !== undefined) set.event_types = JSON.stringify(patch.event_types);
    let inboundSecretIssued = false;
    if (patch.inbound?.enabled === true && !current.verify_inbound_signatures) {
      set.verify_inbound_signatures = true;
      set.inbound_secret = patch.inbound.secretEnvelope;
      inboundSecretIssued = true;
    } else if (patch.inbound?.enabled === false) {
      set.verify_inbound_signatures = false;
      set.inbound_secret = null;
    }
    if (Object.keys(set).length === 0) {
      const target = await getTarget(tx, orgId, id, filter);
      return target && { target, inboundSecretIssued };
    }
    const target = await tx
      .updateTable('targets')
      .set({ ...set, updated_at: new Date() })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returning(targetColumns)
      .returning(hasPrevious)
      .executeTakeFirstOrThrow();
    return { target, inboundSecretIssued };
  });
}

/** Marks a live target deleted. The row stays: events reference it and remain readable. */
export async function softDeleteTarget(
  db: Db,
  orgId: string,
  id: string,
  filter: TargetFilter = {},
): Promise<boolean> {
  let q = db
    .updateTable('targets')
    .set({ deleted_at: new Date(), updated_at: new Date() })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  const r = await q.executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
