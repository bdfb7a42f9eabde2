// Secrets at rest (signing secrets, inbound secrets, a2a bearer tokens): AES-256-GCM envelopes that
// name the key they were sealed under, so a new key can be put first in ENCRYPTION_KEYS while rows
// sealed under the old one (still listed) keep opening. Key material never appears in an error.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export interface SecretBox {
  /** The key id new envelopes are sealed under (the first configured key). */
  readonly currentKeyId: string;
  /** Encrypts under the current key: "v1.<kid>.<iv>.<tag>.<ciphertext>", all base64url. */
  seal(plain: string): string;
  /** Decrypts with whichever configured key the envelope names; throws SecretOpenError otherwise. */
  open(envelope: string): string;
  /** True when the envelope was sealed under a key other than the current one (re-seal it). */
  needsReseal(envelope: string): boolean;
}

/** An envelope that cannot be opened: malformed, unknown key id, or failed authentication. */
export class SecretOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

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

/** Builds the box from the ENCRYPTION_KEYS setting; throws a clear startup error when it is unusable. */
export function createSecretBox(encryptionKeys: string): SecretBox {
  const keys = parseEncryptionKeys(encryptionKeys);
  const [currentKeyId, currentKey] = [...keys.entries()][0] as [string, Buffer];
  // The header is authenticated too, so an envelope cannot be relabelled with another key id.
  const aad = (kid: string): Buffer => Buffer.from(`${VERSION}.${kid}`);

  const seal = (plain: string): string => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', currentKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(currentKeyId));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, currentKeyId, b64(iv), b64(cipher.getAuthTag()), b64(ct)].join('.');
  };

  const keyIdOf = (envelope: string): string => {
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION)
      throw new SecretOpenError('encrypted secret is malformed (expected v1.<kid>.<iv>.<tag>.<ciphertext>)');
    return parts[1] ?? '';
  };

  const open = (envelope: string): string => {
    const kid = keyIdOf(envelope);
    const key = keys.get(kid);
    if (!key)
      throw new SecretOpenError(`encrypted secret names key id "${kid}", which is not in ENCRYPTION_KEYS`);
    const [, , ivPart, tagPart, ctPart] = envelope.split('.');
    const iv = unb64(ivPart, 'iv');
    const tag = unb64(tagPart, 'tag');
    const ct = unb64(ctPart, 'ciphertext');
    // GCM accepts truncated tags unless told otherwise; a short tag would weaken authentication.
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
      throw new SecretOpenError('encrypted secret is malformed (iv or tag length)');
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(kid));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError(`encrypted secret failed authentication under key id "${kid}" (tampered?)`);
    }
  };

  // Workers open the same few envelopes on every delivery; an authenticated envelope always opens
  // to the same plain text, so it is remembered (bounded).
  const opened = new Map<string, string>();
  const openCached = (envelope: string): string => {
    let plain = opened.get(envelope);
    if (plain === undefined) {
      plain = open(envelope);
      if (opened.size >= 10_000) opened.clear();
      opened.set(envelope, plain);
    }
    return plain;
  };

  return {
    currentKeyId,
    seal,
    open: openCached,
    needsReseal: (envelope) => keyIdOf(envelope) !== currentKeyId,
  };
}
