// Webhook verification for receivers, over the official `standardwebhooks` package: the signature
// scheme is the standard's, so the package (not our own HMAC code) decides what verifies. This file only
// accepts the shapes receivers actually hold (fetch Headers, Node's IncomingHttpHeaders, a plain record;
// a string, Buffer or Uint8Array body) and turns the package's errors into one typed error with a reason.
import { Webhook, WebhookVerificationError as PackageError } from 'standardwebhooks';

export type WebhookFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'bad_signature'
  | 'invalid_secret'
  | 'invalid_payload';

/** Why a delivery did not verify; `reason` is stable, the message is the package's own words. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookFailure;

  constructor(reason: WebhookFailure, message: string, options?: ErrorOptions) {
    super(`${reason}: ${message}`, options);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

/** Anything with `get` (fetch Headers), or a record of header values as Node and frameworks give them. */
export type WebhookHeaders =
  Pick<Headers, 'get'> | Readonly<Record<string, string | readonly string[] | undefined>>;

const NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

const REASONS: Record<string, WebhookFailure> = {
  'Missing required headers': 'missing_headers',
  'Invalid Signature Headers': 'invalid_timestamp',
  'Message timestamp too old': 'timestamp_too_old',
  'Message timestamp too new': 'timestamp_too_new',
  'No matching signature found': 'bad_signature',
};

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as Pick<Headers, 'get'>).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  // Repeated signature headers carry space-separated lists, as the one header does.
  return Array.isArray(value) ? value.join(' ') : (value as string | undefined);
}

function webhookHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of NAMES) {
    const value = headerValue(headers, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The package signs a string or a Buffer (not a bare Uint8Array): bytes are read as UTF-8 either way. */
function bodyText(rawBody: string | Uint8Array): string {
  if (typeof rawBody === 'string') return rawBody;
  return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8');
}

function verifyWith(secret: string, text: string, headers: Record<string, string>): unknown {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch (err) {
    throw new WebhookVerificationError('invalid_secret', (err as Error).message, { cause: err });
  }
  try {
    return webhook.verify(text, headers);
  } catch (err) {
    if (err instanceof PackageError)
      throw new WebhookVerificationError(REASONS[err.message] ?? 'bad_signature', err.message, {
        cause: err,
      });
    // The signature matched, so the body is the sender's: it is just not JSON.
    throw new WebhookVerificationError('invalid_payload', (err as Error).message, { cause: err });
  }
}

/**
 * Verifies a webhook delivery (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers, Standard
 * Webhooks) and returns its parsed JSON payload. Pass the body exactly as received, before any JSON
 * parsing. The timestamp must be within 5 minutes of this machine's clock, either way (the package's
 * fixed tolerance), which bounds replays of a captured delivery.
 *
 * While a target's signing secret rotates, each delivery carries one signature per secret, so either
 * secret verifies it; `secret` may also list several secrets (old and new), and any one verifying is
 * enough.
 *
 * @throws WebhookVerificationError with `reason`: `missing_headers`, `invalid_timestamp`,
 * `timestamp_too_old`, `timestamp_too_new`, `bad_signature`, `invalid_secret` or `invalid_payload`.
 */
export function verifyWebhook<T = unknown>(
  secret: string | readonly string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
): T {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('invalid_secret', 'no secret given');
  const text = bodyText(rawBody);
  const values = webhookHeaders(headers);
  let lastError: WebhookVerificationError | undefined;
  for (const s of secrets) {
    try {
      return verifyWith(s, text, values) as T;
    } catch (err) {
      // Only a signature mismatch can depend on the secret; any other failure is the delivery's own.
      if (!(err instanceof WebhookVerificationError) || err.reason !== 'bad_signature') throw err;
      lastError = err;
    }
  }
  throw lastError ?? new WebhookVerificationError('bad_signature', 'No matching signature found');
}
