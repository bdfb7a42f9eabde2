// Whether a request's Standard Webhooks signature verified with a secret the inbox knows, and how
// many signatures it carried (two while a target's secret is rotating).
import type { InboxSignature } from './types.ts';

export const signatureCount = (n: number): string => `${n} signature${n === 1 ? '' : 's'}`;

export function SignatureBadge({ signature }: { signature: InboxSignature }) {
  return (
    <span className={`badge ${signature.verified ? 'success' : 'danger'}`}>
      {signature.verified ? 'Signature verified' : 'Signature not verified'}
      <span className="inbox-count"> · {signatureCount(signature.signatures)}</span>
    </span>
  );
}
