// Agent Card discovery: fetch, parse, choose the interface. Used when an a2a target is created or
// refreshed (API) and when an interface answers 404 (worker).
import type { A2aInterface } from '@evds/db';
import type { UrlCheck } from '@evds/netguard';
import { authWarnings, chooseInterface, parseAgentCard } from './card.ts';
import { fetchCard, type CardFetchOptions } from './fetch-card.ts';

export interface DiscoveredCard {
  iface: A2aInterface;
  /** The card as parsed, kept for a later conditional refresh; null when it cannot be stored. */
  card: Record<string, unknown> | null;
  etag: string | null;
  warnings: string[];
}

export type Discovery =
  | ({ ok: true } & DiscoveredCard)
  /** `refused`: the card URL itself is refused by the network policy. */
  | { ok: false; refused: boolean; reason: string };

/** What a previous fetch left: sending its ETag back lets an unchanged card answer 304. */
export interface CachedCard {
  card: unknown;
  etag: string | null;
}

export type Discover = (
  agentCardUrl: string,
  authType: 'none' | 'bearer',
  cached?: CachedCard | null,
) => Promise<Discovery>;

export function createDiscovery(opts: CardFetchOptions): Discover {
  const checkUrl = (url: string): Promise<UrlCheck> => opts.checkUrl(url);
  return async (agentCardUrl, authType, cached) => {
    const cachedCard =
      cached?.etag && typeof cached.card === 'object' && cached.card !== null && !Array.isArray(cached.card)
        ? (cached.card as Record<string, unknown>)
        : null;
    const fetched = await fetchCard(agentCardUrl, opts, cachedCard ? cached?.etag : null);
    if (!fetched.ok) return fetched;
    let card: Record<string, unknown>;
    let etag: string | null;
    if (fetched.notModified && cachedCard) {
      card = cachedCard;
      etag = cached?.etag ?? null;
    } else if (!fetched.notModified) {
      const parsed = parseAgentCard(fetched.body);
      if (!parsed.ok) return { ok: false, refused: false, reason: parsed.reason };
      card = parsed.card;
      etag = fetched.etag;
    } else {
      return {
        ok: false,
        refused: false,
        reason: 'the Agent Card URL answered 304 to an unconditional request',
      };
    }
    // The interface URL is checked again on every refresh: the policy or DNS may have changed.
    const choice = await chooseInterface(card, checkUrl);
    if (!choice.ok) return { ok: false, refused: false, reason: choice.reason };
    const storable = storableCard(card);
    return {
      ok: true,
      iface: choice.iface,
      card: storable,
      etag: storable ? etag : null,
      warnings: authWarnings(card, authType),
    };
  };
}

/** Postgres jsonb refuses the NUL character; such a card is used but not cached. */
function storableCard(card: Record<string, unknown>): Record<string, unknown> | null {
  return JSON.stringify(card).includes('\\u0000') ? null : card;
}
