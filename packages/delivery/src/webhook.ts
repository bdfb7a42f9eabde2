import type { Agent } from 'node:https';
import type { SecretBox } from '@evds/secrets';
import type { Sender } from './process.ts';
import { postJson } from './send.ts';
import { signatureHeader } from './sign.ts';

const USER_AGENT = 'evds-webhooks/1.0 (+standard-webhooks)';

/** Webhook delivery: the archived bytes, signed with the current (and, while rotating, previous) secret. */
export function webhookSender(opts: { agent: Agent; timeoutMs: number; connectTimeoutMs?: number }): Sender {
  return async (work, secrets: SecretBox) => {
    const signing = [work.signing_secret, work.previous_signing_secret]
      .filter((s): s is string => s !== null)
      .map((s) => secrets.open(s));
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
