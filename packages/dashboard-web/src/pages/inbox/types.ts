// What the dashboard's back end answers about the local inbox (GET /app/inbox), development only.

export interface InboxSignature {
  verified: boolean;
  /** How many v1 signatures the webhook-signature header carries: two during a secret rotation. */
  signatures: number;
  /** The label of the known secret that verified (e.g. a target id), or null. */
  matched: string | null;
  /** A human sentence: why it verified or did not. */
  detail: string;
}

export interface InboxRequest {
  id: string;
  /** Unix milliseconds. */
  received_at: number;
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The exact bytes received, as UTF-8. */
  body: string;
  signature: InboxSignature;
}
