// Secrets at rest (signing secrets, inbound secrets, a2a bearer tokens): AES-256-GCM envelopes that
// name the key they were sealed under, so a new key can be put first in ENCRYPTION_KEYS while rows
// sealed under the old one (still listed) keep opening. Key material never appears in an error.
//
// Envelopes are bound to where they are stored: the target id and the column's purpose are part of the
// authenticated data, so one copied into another target's row, or into a column with another purpose,
// fails authentication instead of opening (someone able to write the database must not be able to make
// org B's deliveries sign with org A's secret, or turn an inbound secret into a signing secret).
//
// Formats: "v2" envelopes are bound. "v1" envelopes (sealed before binding existed) are bound to
// nothing: they still open, wherever they are found, so a deployment keeps working right after the
// upgrade, and `needsReseal` is true for them, so `admin reseal-secrets` re-seals each one bound to the
// row and column it is found in. New envelopes are always v2. A v1 envelope can only name a key that was
// configured before the upgrade, so the way to make old copies (backups, a copy taken by an attacker)
// unopenable is the key rotation of the runbook: put a new key first, re-seal, drop the old key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v2';
const UNBOUND_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The target columns that hold sealed secrets. */
export type SealedColumn = 'signing_secret' | 'previous_signing_secret' | 'inbound_secret' | 'a2a_auth_token';

/** Where an envelope is stored: the target's id and the column. An envelope opens only there. */
export interface SecretBinding {
  readonly id: string;
  readonly column: SealedColumn;
}

/**
 * What the authenticated data names for each column. A rotation moves the current signing secret into
 * previous_signing_secret in one UPDATE, and the API (which only seals) cannot re-seal it, so the two
 * signing columns share a purpose: both sign every delivery, so moving an envelope between them gains
 * nothing that putting back an old envelope of the same row would not (which no binding can prevent).
 */
const purposes: Record<SealedColumn, string> = {
  signing_secret: 'signing',
  previous_signing_secret: 'signing',
  inbound_secret: 'inbound',
  a2a_auth_token: 'a2a-token',
};

export interface SecretBox {
  /** The key id new envelopes are sealed under (the first configured key). */
  readonly currentKeyId: string;
  /** Encrypts under the current key, bound to `at`: "v2.<kid>.<iv>.<tag>.<ciphertext>", all base64url. */
  seal(plain: string, at: SecretBinding): string;
  /**
   * Decrypts with whichever configured key the envelope names, if it was sealed for `at` (a v1
   * envelope is bound to nothing and opens anywhere); throws SecretOpenError otherwise.
   */
  open(envelope: string, at: SecretBinding): string;
  /** True when the envelope is unbound (v1) or under a key other than the current one (re-seal it). */
  needsReseal(envelope: string): boolean;
}

/** An envelope that cannot be opened: malformed, unknown key id, or failed authentication. */
export class SecretOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

/** True for an envelope in the bound format; false for the old format, bound to no row. */
export const isBoundEnvelope = (envelope: string): boolean => envelope.startsWith(`${VERSION}.`);

const configError = (detail: string): Error =>
  new Error(
    `invalid configuration: ENCRYPTION_KEYS ${detail}; expected "kid:base64(32 random bytes)" entries, ` +
      'comma-separated, the first one encrypts (e.g. "k1:$(openssl rand -base64 32)")',
  );

/** Parses ENCRYPTION_KEYS into key id -> key, in configured order. Throws a startup error when unusable. */
export function parseEncryptionKeys(config: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  const entries = config
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw configError('is empty: no encryption key is configured');
  for (const [i, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const kid = colon < 0 ? '' : entry.slice(0, colon).trim();
    const material = colon < 0 ? '' : entry.slice(colon + 1).trim();
    if (!KID.test(kid))
      throw configError(`entry ${i + 1} has no valid key id (letters, digits, "_" or "-", before ":")`);
    if (keys.has(kid)) throw configError(`lists key id "${kid}" twice`);
    const key = BASE64.test(material) ? Buffer.from(material, 'base64') : Buffer.alloc(0);
    if (key.length !== KEY_BYTES)
      throw configError(`key "${kid}" is ${key.length} bytes after base64 decoding, not ${KEY_BYTES}`);
    keys.set(kid, key);
  }
  return keys;
}

const b64 = (b: Buffer): string => b.toString('base64url');

function unb64(part: string | undefined, what: string): Buffer {
  if (part === undefined || !BASE64URL.test(part)) throw new SecretOpenError(`encrypted secret: bad ${what}`);
  return Buffer.from(part, 'base64url');
}

/**
 * The authenticated data: the header, so an envelope cannot be relabelled with another key id or
 * version, and for v2 where it is stored. The id comes last, so no choice of id can make two bindings'
 * data equal (key ids and purposes have no dots).
 */
function associatedData(version: string, kid: string, at: SecretBinding): Buffer {
  if (version === UNBOUND_VERSION) return Buffer.from(`${version}.${kid}`);
  const purpose = purposes[at.column] as string | undefined;
  // A missing id would bind every such envelope together: a bug in the caller, never a stored value.
  if (!at.id || !purpose) throw new Error('a sealed secret must be bound to a target id and a sealed column');
  return Buffer.from(`${version}.${kid}.${purpose}.${at.id}`);
}

function parse(envelope: string) {
  const [version = '', kid = '', iv, tag, ct, ...rest] = envelope.split('.');
  if ((version !== VERSION && version !== UNBOUND_VERSION) || ct === undefined || rest.length > 0)
    throw new SecretOpenError('encrypted secret is malformed (expected v2.<kid>.<iv>.<tag>.<ciphertext>)');
  return { version, kid, iv, tag, ct };
}

/** Builds the box from the ENCRYPTION_KEYS setting; throws a clear startup error when it is unusable. */
export function createSecretBox(encryptionKeys: string): SecretBox {
  const keys = parseEncryptionKeys(encryptionKeys);
  const [currentKeyId, currentKey] = [...keys.entries()][0] as [string, Buffer];

  const seal = (plain: string, at: SecretBinding): string => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', currentKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(VERSION, currentKeyId, at));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, currentKeyId, b64(iv), b64(cipher.getAuthTag()), b64(ct)].join('.');
  };

  const open = (envelope: string, at: SecretBinding): string => {
    const parts = parse(envelope);
    const key = keys.get(parts.kid);
    if (!key)
      throw new SecretOpenError(
        `encrypted secret names key id "${parts.kid}", which is not in ENCRYPTION_KEYS`,
      );
    const iv = unb64(parts.iv, 'iv');
    const tag = unb64(parts.tag, 'tag');
    const ct = unb64(parts.ct, 'ciphertext');
    // GCM accepts truncated tags unless told otherwise; a short tag would weaken authentication.
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
      throw new SecretOpenError('encrypted secret is malformed (iv or tag length)');
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(parts.version, parts.kid, at));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError(
        `encrypted secret failed authentication under key id "${parts.kid}" ` +
          '(tampered, or copied from another target or column?)',
      );
    }
  };

  // Workers open the same few envelopes on every delivery; an authenticated envelope always opens to
  // the same plain text where it is bound, so it is remembered (bounded) under envelope and binding
  // together: the same envelope asked for at another binding is opened, and refused, afresh.
  const opened = new Map<string, string>();
  const openCached = (envelope: string, at: SecretBinding): string => {
    const cacheKey = JSON.stringify([at.id, at.column, envelope]);
    let plain = opened.get(cacheKey);
    if (plain === undefined) {
      plain = open(envelope, at);
      if (opened.size >= 10_000) opened.clear();
      opened.set(cacheKey, plain);
    }
    return plain;
  };

  return {
    currentKeyId,
    seal,
    open: openCached,
    needsReseal: (envelope) => {
      const { version, kid } = parse(envelope);
      return version !== VERSION || kid !== currentKeyId;
    },
  };
}
