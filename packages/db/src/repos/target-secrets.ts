// A target's secrets: the signing secrets (rotation, the previous one while rotating), the inbound
// secret, and the sealed columns as the operator's reseal command reads and replaces them. Only these
// functions read secret columns; the rest of the target repository never selects them.
import type { Db } from '../database.ts';
import { live } from './targets.ts';

/**
 * Opens a SecretBox envelope (packages/secrets) stored at one target's column: envelopes are bound to
 * where they are stored, so the row's id and the column always go with it. Kept structural so the db
 * package needs no key.
 */
export interface SecretOpener {
  open(envelope: string, at: { id: string; column: SealedTargetColumn }): string;
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
    current: box.open(row.signing_secret, { id, column: 'signing_secret' }),
    previous: row.previous_signing_secret
      ? box.open(row.previous_signing_secret, { id, column: 'previous_signing_secret' })
      : null,
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
  return box.open(row.inbound_secret, { id, column: 'inbound_secret' });
}

/** The target columns that hold sealed secrets (SecretBox envelopes, each bound to its row and column). */
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
