// a2a targets: creation from an Agent Card and the card's storage (interface, ETag, fetch time), which
// a refresh reads and replaces.
import type { TargetKind } from '@evds/domain';
import type { Db } from '../database.ts';
import type { A2aInterface } from '../tables/index.ts';
import { hasPrevious, live, targetColumns, type PublicTarget } from './targets.ts';

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
