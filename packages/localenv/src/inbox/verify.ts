// Standard Webhooks verification of one received request against every secret the inbox knows,
// done by the official `standardwebhooks` package (not our signer's code), with a sentence a person
// can read on the Inbox page explaining the outcome.
import { Webhook } from 'standardwebhooks';

export interface SignatureCheck {
  verified: boolean;
  /** How many v1 signatures the webhook-signature header carries (two while a secret rotates). */
  signatures: number;
  /** The label of the known secret that verified (a target id), or null. */
  matched: string | null;
  detail: string;
}

export interface KnownSecret {
  label: string;
  secret: string;
}

const plural = (n: number) => `${n} signature${n === 1 ? '' : 's'}`;

/** Counts the `v1,<base64>` entries of a webhook-signature header (space-separated). */
export function countV1Signatures(header: string | undefined): number {
  if (!header) return 0;
  return header.split(' ').filter((s) => s.startsWith('v1,') && s.length > 3).length;
}

export function checkSignature(
  body: Buffer,
  headers: Record<string, string>,
  known: readonly KnownSecret[],
): SignatureCheck {
  const header = headers['webhook-signature'];
  const signatures = countV1Signatures(header);
  const fail = (detail: string): SignatureCheck => ({ verified: false, signatures, matched: null, detail });
  if (!header) return fail('no webhook-signature header');
  if (!headers['webhook-id'] || !headers['webhook-timestamp'])
    return fail('the webhook-id or webhook-timestamp header is missing');
  if (signatures === 0) return fail('the webhook-signature header carries no v1 signature');
  if (known.length === 0)
    return fail(`no signing secret is registered with the inbox (${plural(signatures)})`);
  const timestampProblem = new Set<string>();
  for (const { label, secret } of known) {
    try {
      new Webhook(secret).verify(body, headers, { jsonParse: false });
      return {
        verified: true,
        signatures,
        matched: label,
        detail: `verified with the signing secret of target ${label}`,
      };
    } catch (err) {
      const message = err instanceof Error ? err.message : '';
      // The package checks the timestamp before any signature, so this holds for every secret alike.
      if (/timestamp too (old|new)/i.test(message)) timestampProblem.add(message);
      else if (/invalid signature headers/i.test(message)) timestampProblem.add('invalid timestamp');
    }
  }
  const problem = [...timestampProblem][0];
  if (problem === 'Message timestamp too old')
    return fail(`timestamp too old: signed more than 5 minutes before it arrived (${plural(signatures)})`);
  if (problem === 'Message timestamp too new')
    return fail(`timestamp too new: signed more than 5 minutes in the future (${plural(signatures)})`);
  if (problem) return fail('the webhook-timestamp header is not a unix time in seconds');
  return fail(`no known secret matches (${plural(signatures)})`);
}
