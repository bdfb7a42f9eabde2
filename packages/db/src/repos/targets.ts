import type { TargetKind } from '@evds/domain';
import { sql } from 'kysely';
import type { Db } from '../database.ts';
import type { A2aInterface, Target, TargetUpdate } from '../tables/index.ts';

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

/** Opens a SecretBox envelope (packages/secrets); kept structural so the db package needs no key. */
export interface SecretOpener {
  open(envelope: string): string;
}

/** Narrows a lookup to one kind: the legacy endpoint routes see webhook targets only. */
export interface TargetFilter {
  kind?: TargetKind;
}

const hasPrevious = sql<boolean>`previous_signing_secret is not null`.as('has_previous_signing_secret');

/** Live (not deleted) targets of one organization, optionally of one kind. */
function live(db: Db, orgId: string, filter: TargetFilter) {
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

/** Oldest first; deleted targets are never listed. */
export async function listTargets(db: Db, orgId: string, filter: TargetFilter = {}): Promise<PublicTarget[]> {
  return live(db, orgId, filter)
    .select(targetColumns)
    .select(hasPrevious)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
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

export type SigningSecretChange = 'changed' | 'not_found' | 'not_webhook';

/** Runs a signing-secret change on a live webhook target, with the row locked. */
async function onWebhook(
  db: Db,
  orgId: string,
  id: string,
  change: (tx: Db) => Promise<void>,
): Promise<SigningSecretChange> {
  return db.transaction().execute(async (tx) => {
    const row = await live(tx, orgId, {}).select('kind').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) return 'not_found';
    if (row.kind !== 'webhook') return 'not_webhook';
    await change(tx);
    return 'changed';
  });
}

/**
 * Starts (or continues) a rotation: the given envelope becomes the current signing secret and the old
 * current one becomes the previous, replacing any previous already there.
 */
export async function rotateSigningSecret(
  db: Db,
  orgId: string,
  id: string,
  newSecretEnvelope: string,
): Promise<SigningSecretChange> {
  return onWebhook(db, orgId, id, async (tx) => {
    await tx
      .updateTable('targets')
      .set((eb) => ({
        previous_signing_secret: eb.ref('signing_secret'),
        signing_secret: newSecretEnvelope,
        updated_at: new Date(),
      }))
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
  });
}

/** Ends a rotation: deliveries are signed with the current secret only from now on. */
export async function dropPreviousSigningSecret(
  db: Db,
  orgId: string,
  id: string,
): Promise<SigningSecretChange> {
  return onWebhook(db, orgId, id, async (tx) => {
    await tx
      .updateTable('targets')
      .set({ previous_signing_secret: null, updated_at: new Date() })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
  });
}

export interface SigningSecrets {
  current: string;
  /** Set while a rotation is under way: deliveries carry a signature for each secret. */
  previous: string | null;
}

/**
 * FOR SIGNING ONLY (the delivery worker): the decrypted signing secrets of a live webhook target.
 * Undefined for an unknown, deleted or non-webhook target.
 */
export async function getSigningSecrets(
  db: Db,
  orgId: string,
  id: string,
  box: SecretOpener,
): Promise<SigningSecrets | undefined> {
  const row = await live(db, orgId, { kind: 'webhook' })
    .select(['signing_secret', 'previous_signing_secret'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.signing_secret) return undefined;
  return {
    current: box.open(row.signing_secret),
    previous: row.previous_signing_secret ? box.open(row.previous_signing_secret) : null,
  };
}

/**
 * FOR VERIFYING INBOUND SIGNATURES ONLY (ingest): the decrypted inbound secret of a live webhook target,
 * or null when verification is off (or the target is unknown or deleted).
 */
export async function getInboundSecret(
  db: Db,
  orgId: string,
  id: string,
  box: SecretOpener,
): Promise<string | null> {
  const row = await live(db, orgId, { kind: 'webhook' })
    .select(['verify_inbound_signatures', 'inbound_secret'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.verify_inbound_signatures || !row.inbound_secret) return null;
  return box.open(row.inbound_secret);
}

/** What an Agent Card fetch produced, stored on an a2a target. */
export interface A2aCardUpdate {
  iface: A2aInterface;
  /** The parsed card, kept for a conditional refresh (ETag); null when it is not kept. */
  card: unknown;
  etag: string | null;
  fetchedAt: Date;
}

export interface NewA2aTargetInput {
  id: string;
  org_id: string;
  name: string;
  description?: string | null;
  agent_card_url: string;
  card: A2aCardUpdate;
  auth_type: 'none' | 'bearer';
  /** A SecretBox envelope of the bearer token, never the plain token. */
  auth_token: string | null;
}

/** The chosen interface is also the target's delivery URL (the `url` column every kind shares). */
const cardColumns = (u: A2aCardUpdate) => ({
  url: u.iface.url,
  a2a_interface: JSON.stringify(u.iface),
  a2a_card: u.card === null ? null : JSON.stringify(u.card),
  a2a_card_etag: u.etag,
  a2a_card_fetched_at: u.fetchedAt,
});

export async function createA2aTarget(db: Db, t: NewA2aTargetInput): Promise<PublicTarget> {
  return db
    .insertInto('targets')
    .values({
      id: t.id,
      org_id: t.org_id,
      kind: 'a2a',
      name: t.name,
      description: t.description ?? null,
      agent_card_url: t.agent_card_url,
      a2a_auth_type: t.auth_type,
      a2a_auth_token: t.auth_token,
      ...cardColumns(t.card),
    })
    .returning(targetColumns)
    .returning(hasPrevious)
    .executeTakeFirstOrThrow();
}

/** Where a live target's Agent Card comes from and what was cached from it (never the token). */
export interface A2aCardSource {
  kind: TargetKind;
  agent_card_url: string | null;
  a2a_card: unknown;
  a2a_card_etag: string | null;
  a2a_card_fetched_at: Date | null;
  a2a_auth_type: 'none' | 'bearer' | null;
}

export async function getA2aCardSource(
  db: Db,
  orgId: string,
  id: string,
): Promise<A2aCardSource | undefined> {
  return live(db, orgId, {})
    .select(['kind', 'agent_card_url', 'a2a_card', 'a2a_card_etag', 'a2a_card_fetched_at', 'a2a_auth_type'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Replaces the cached interface (and card) of a live a2a target. With `fetchedBefore`, only a cache
 * older than that is replaced, so concurrent refreshes of one target settle on one write.
 */
export async function storeA2aCard(
  db: Db,
  orgId: string,
  id: string,
  u: A2aCardUpdate,
  opts: { fetchedBefore?: Date } = {},
): Promise<PublicTarget | undefined> {
  let q = db
    .updateTable('targets')
    .set({ ...cardColumns(u), updated_at: new Date() })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('kind', '=', 'a2a')
    .where('deleted_at', 'is', null);
  const before = opts.fetchedBefore;
  if (before)
    q = q.where((eb) =>
      eb.or([eb('a2a_card_fetched_at', 'is', null), eb('a2a_card_fetched_at', '<', before)]),
    );
  return q.returning(targetColumns).returning(hasPrevious).executeTakeFirst();
}

/** The target columns that hold sealed secrets (SecretBox envelopes). */
export const sealedTargetColumns = [
  'signing_secret',
  'previous_signing_secret',
  'inbound_secret',
  'a2a_auth_token',
] as const;
export type SealedTargetColumn = (typeof sealedTargetColumns)[number];

export type SealedSecretsRow = { id: string } & Record<SealedTargetColumn, string | null>;

/**
 * FOR KEY ROTATION ONLY (the operator's reseal-secrets command), across every organization and
 * deleted targets too: the sealed columns of targets after `afterId`, in id order.
 */
export async function listSealedSecrets(
  db: Db,
  afterId: string | null,
  limit: number,
): Promise<SealedSecretsRow[]> {
  let q = db
    .selectFrom('targets')
    .select(['id', ...sealedTargetColumns])
    .where((eb) => eb.or(sealedTargetColumns.map((c) => eb(c, 'is not', null))));
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}

/**
 * Replaces one sealed value, only if it is still the one that was read: a rotation or an update that
 * happened in between wins, and the next run of the command picks its value up. True when replaced.
 */
export async function replaceSealedSecret(
  db: Db,
  id: string,
  column: SealedTargetColumn,
  expected: string,
  next: string,
): Promise<boolean> {
  const r = await db
    .updateTable('targets')
    .set({ [column]: next })
    .where('id', '=', id)
    .where(column, '=', expected)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
