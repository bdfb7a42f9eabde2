// Reading an Agent Card (A2A v1.0, protobuf-JSON) and choosing the interface this service talks to.
// Lenient about the descriptive fields (real cards omit some of them), strict about the interface
// used: HTTP+JSON, protocol version 1.x, an https URL that the network policy allows. A card is up to
// 256 KiB of someone else's text, so what is read from it is bounded before it is parsed or echoed.
import type { A2aInterface } from '@evds/db';
import { MAX_URL_LENGTH, trimTrailing, type UrlCheck } from '@evds/netguard';

export type CardParse = { ok: true; card: Record<string, unknown> } | { ok: false; reason: string };
export type InterfaceChoice = { ok: true; iface: A2aInterface } | { ok: false; reason: string };

const BINDING = 'HTTP+JSON';
const VERSION_1 = /^1(\.\d+){0,2}$/;
/**
 * Entries of `supportedInterfaces` looked at; later ones are ignored. Each costs a DNS lookup, and a
 * card of 10,000 entries must not hold an API request or a worker for 10,000 of them.
 */
export const MAX_CARD_INTERFACES = 32;
/** How much of a card's text a reason quotes. */
const ECHO_CHARS = 200;
/** Fields of a v0.2/v0.3 card that v1.0 replaced with `supportedInterfaces`. */
const PRE_1_0_FIELDS = ['url', 'preferredTransport', 'additionalInterfaces', 'protocolVersion'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const echo = (text: string): string => (text.length > ECHO_CHARS ? `${text.slice(0, ECHO_CHARS)}…` : text);

/** Parses the card's bytes; a leading byte-order mark is tolerated. */
export function parseAgentCard(bytes: Buffer): CardParse {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the Agent Card is not valid JSON' };
  }
  if (!isObject(parsed)) return { ok: false, reason: 'the Agent Card is not a JSON object' };
  return { ok: true, card: parsed };
}

/**
 * The first `supportedInterfaces` entry this service can use, or a reason naming what each entry
 * lacked. Only the first MAX_CARD_INTERFACES entries are examined (the reason says so when there were
 * more). A card without `supportedInterfaces` but with v0.3 fields is called what it is.
 */
export async function chooseInterface(
  card: Record<string, unknown>,
  checkUrl: (url: string) => Promise<UrlCheck>,
): Promise<InterfaceChoice> {
  const entries = card.supportedInterfaces;
  if (entries === undefined) {
    const old = PRE_1_0_FIELDS.filter((f) => card[f] !== undefined);
    if (old.length > 0) {
      const version =
        typeof card.protocolVersion === 'string' ? ` (protocolVersion ${card.protocolVersion})` : '';
      return {
        ok: false,
        reason:
          `the Agent Card is a pre-1.0 card${version}: it has top-level ${old.join(', ')} and no ` +
          'supportedInterfaces; an A2A v1.0 card is required',
      };
    }
    return { ok: false, reason: 'the Agent Card has no supportedInterfaces' };
  }
  if (!Array.isArray(entries) || entries.length === 0)
    return { ok: false, reason: 'the Agent Card has no supportedInterfaces' };

  const skipped: string[] = [];
  for (const [i, entry] of entries.slice(0, MAX_CARD_INTERFACES).entries()) {
    const why = await unusable(entry, checkUrl);
    if (typeof why === 'string') {
      skipped.push(`#${i + 1}: ${why}`);
      continue;
    }
    return { ok: true, iface: why };
  }
  const unread =
    entries.length > MAX_CARD_INTERFACES
      ? `; only the first ${MAX_CARD_INTERFACES} of ${entries.length} entries are examined`
      : '';
  return {
    ok: false,
    reason: `the Agent Card has no usable A2A v1 HTTP+JSON interface (${skipped.join('; ')}${unread})`,
  };
}

/** Why one entry cannot be used, or the interface it describes. */
async function unusable(
  entry: unknown,
  checkUrl: (url: string) => Promise<UrlCheck>,
): Promise<string | A2aInterface> {
  if (!isObject(entry)) return 'not an object';
  const { url, protocolBinding, protocolVersion, tenant } = entry;
  if (typeof url !== 'string' || typeof protocolBinding !== 'string' || typeof protocolVersion !== 'string')
    return 'url, protocolBinding and protocolVersion must be strings';
  if (protocolBinding.toUpperCase() !== BINDING) return `binding ${echo(protocolBinding)} is not ${BINDING}`;
  if (!VERSION_1.test(protocolVersion.trim())) return `protocol version ${echo(protocolVersion)} is not 1.x`;
  if (url.length > MAX_URL_LENGTH) return `url is too long: over ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url ${JSON.stringify(url)} is not a valid URL`;
  }
  if (parsed.protocol !== 'https:') return `url ${url} is not https`;
  const iface: A2aInterface = {
    url,
    binding: protocolBinding,
    version: protocolVersion.trim(),
    ...(typeof tenant === 'string' && tenant !== '' ? { tenant } : {}),
  };
  const tenantWhy = unusableTenant(iface);
  if (tenantWhy) return tenantWhy;
  const verdict = await checkUrl(url);
  if (!verdict.ok) return `url ${url} is refused by the network policy: ${verdict.reason}`;
  return iface;
}

/**
 * The tenant is stored and goes into every message:send URL, so that URL is held to the cap every
 * outbound URL has; and the tenant must encode (a lone surrogate makes encodeURIComponent throw) and
 * store (jsonb refuses NUL and lone surrogates), or the card would fail later, as a 500 or on every send.
 */
function unusableTenant(iface: A2aInterface): string | undefined {
  const { tenant } = iface;
  if (tenant === undefined) return undefined;
  const tooLong = `tenant is too long: the message:send URL would be over ${MAX_URL_LENGTH} characters`;
  // The raw length first: encoding never shortens a tenant, and a tenant of 256 KiB is not worth encoding.
  if (tenant.length > MAX_URL_LENGTH) return tooLong;
  if (!tenant.isWellFormed() || tenant.includes('\0'))
    return 'tenant must be well-formed Unicode without NUL characters';
  if (messageSendUrl(iface).length > MAX_URL_LENGTH) return tooLong;
  return undefined;
}

/**
 * Advice, never a refusal: a card that asks for credentials while the target sends none. Bearer,
 * OAuth2 and OpenID Connect schemes all travel as `Authorization: Bearer`.
 */
export function authWarnings(card: Record<string, unknown>, authType: 'none' | 'bearer'): string[] {
  if (authType !== 'none') return [];
  const requirements = card.securityRequirements;
  if (!Array.isArray(requirements)) return [];
  const names = new Set<string>();
  for (const r of requirements) {
    if (isObject(r) && isObject(r.schemes)) for (const name of Object.keys(r.schemes)) names.add(name);
  }
  if (names.size === 0) return [];
  return [
    `the Agent Card requires authentication (${[...names].join(', ')}) but auth.type is "none"; ` +
      'the agent may refuse deliveries',
  ];
}

/** The message:send URL of an interface: no trailing slash, the tenant as a path segment. */
export function messageSendUrl(iface: A2aInterface): string {
  const base = trimTrailing(iface.url, '/');
  return iface.tenant ? `${base}/${encodeURIComponent(iface.tenant)}/message:send` : `${base}/message:send`;
}
