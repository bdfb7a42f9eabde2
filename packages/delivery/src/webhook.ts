import type { DeliveryWork } from '@evds/db';
import { SecretOpenError, type SecretBox } from '@evds/secrets';
import type { Dispatcher } from 'undici';
import type { Sender } from './process.ts';
import { postJson, type SendResult } from './send.ts';
import { signatureHeader } from './sign.ts';

const USER_AGENT = 'evds-webhooks/1.0 (+standard-webhooks)';

/** The current and, while rotating, previous signing secret, each opened where it is bound. */
function openSigningSecrets(work: DeliveryWork, secrets: SecretBox): string[] {
  const sealed = [
    ['signing_secret', work.signing_secret],
    ['previous_signing_secret', work.previous_signing_secret],
  ] as const;
  return sealed.flatMap(([column, envelope]) =>
    envelope === null ? [] : [secrets.open(envelope, { id: work.target_id, column })],
  );
}

/**
 * A secret that does not open for this target (copied from another row or column, tampered, or under
 * a dropped key) signs nothing, and nothing is sent without it: the attempt fails with the reason and is
 * retried, so rotating the signing secret, or putting a dropped key back, lets the item through.
 */
const unusableSecret = (err: SecretOpenError): SendResult => ({
  statusCode: null,
  durationMs: 0,
  responseBody: null,
  refused: false,
  error:
    `not sent: the stored signing secret cannot be used (${err.message}); ` +
    'rotate the signing secret and drop the previous one',
});

/** Webhook delivery: the archived bytes, signed with the current (and, while rotating, previous) secret. */
export function webhookSender(opts: { dispatcher: Dispatcher; timeoutMs: number }): Sender {
  return async (work, secrets: SecretBox) => {
    let signing: string[];
    try {
      signing = openSigningSecrets(work, secrets);
    } catch (err) {
      if (err instanceof SecretOpenError) return unusableSecret(err);
      throw err;
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': work.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(signing, work.id, timestamp, work.payload),
    };
    if (work.event_type) headers['x-event-type'] = work.event_type;
    if (work.correlation_id) headers['x-correlation-id'] = work.correlation_id;
    return postJson(work.url, work.payload, headers, opts);
  };
}
