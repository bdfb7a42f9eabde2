// Re-reading a target's Agent Card and replacing its cached interface: on demand (the refresh route)
// and once when an interface answers 404 (the worker), so the next attempt goes where the card says.
import { getA2aCardSource, storeA2aCard, type Db, type DeliveryWork, type PublicTarget } from '@evds/db';
import type { Logger } from '@evds/runtime';
import type { Discover } from './discover.ts';

export type Refresh =
  | { ok: true; target: PublicTarget; warnings: string[] }
  | { ok: false; problem: 'not_found' | 'wrong_kind' | 'superseded' }
  | { ok: false; problem: 'refused' | 'unusable'; reason: string };

export async function refreshTargetCard(
  db: Db,
  discover: Discover,
  orgId: string,
  id: string,
  opts: { fetchedBefore?: Date } = {},
): Promise<Refresh> {
  const source = await getA2aCardSource(db, orgId, id);
  if (!source) return { ok: false, problem: 'not_found' };
  if (source.kind !== 'a2a') return { ok: false, problem: 'wrong_kind' };
  if (!source.agent_card_url)
    return { ok: false, problem: 'unusable', reason: 'the target has no agent_card_url' };
  const before = opts.fetchedBefore;
  if (before && source.a2a_card_fetched_at && source.a2a_card_fetched_at >= before)
    return { ok: false, problem: 'superseded' };
  const fetchedAt = new Date();
  const found = await discover(source.agent_card_url, source.a2a_auth_type ?? 'none', {
    card: source.a2a_card,
    etag: source.a2a_card_etag,
  });
  if (!found.ok) return { ok: false, problem: found.refused ? 'refused' : 'unusable', reason: found.reason };
  const target = await storeA2aCard(
    db,
    orgId,
    id,
    { iface: found.iface, card: found.card, etag: found.etag, fetchedAt },
    opts,
  );
  if (!target) return { ok: false, problem: before ? 'superseded' : 'not_found' };
  return { ok: true, target, warnings: found.warnings };
}

/**
 * The worker's 404 hook: one refresh per 404, none when the card was already re-read since the attempt
 * started (concurrent 404s of one target share one fetch), never a re-send: the next attempt follows
 * the retry schedule with whatever interface is stored then.
 */
export function createNotFoundRefresher(deps: { db: Db; discover: Discover; logger: Logger }) {
  const inFlight = new Map<string, Promise<string>>();
  return (work: DeliveryWork, attemptStartedAt: Date): Promise<string> => {
    const running = inFlight.get(work.target_id);
    if (running) return running;
    const p = (async () => {
      const r = await refreshTargetCard(deps.db, deps.discover, work.org_id, work.target_id, {
        fetchedBefore: attemptStartedAt,
      });
      if (r.ok) {
        const iface = r.target.a2a_interface;
        deps.logger.info({ targetId: work.target_id, url: iface?.url }, 'agent card refreshed after a 404');
        return iface?.url === work.a2a_interface?.url && iface?.tenant === work.a2a_interface?.tenant
          ? 'Agent Card refreshed, interface unchanged'
          : `Agent Card refreshed, next attempt goes to ${iface?.url ?? '(none)'}`;
      }
      switch (r.problem) {
        case 'superseded':
          return 'Agent Card already refreshed since this attempt started';
        case 'not_found':
        case 'wrong_kind':
          return 'target gone, Agent Card not refreshed';
        case 'refused':
        case 'unusable':
          deps.logger.warn({ targetId: work.target_id, reason: r.reason }, 'agent card refresh failed');
          return `Agent Card refresh failed (${r.reason}), interface kept`;
      }
    })().finally(() => inFlight.delete(work.target_id));
    inFlight.set(work.target_id, p);
    return p;
  };
}
