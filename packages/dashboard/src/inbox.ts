// The local inbox of development (an HTTPS receiver with a plain-HTTP control port on 127.0.0.1): the
// dashboard lists what it received and tells it every webhook signing secret it sees created, so the
// Inbox page can say whether each delivery's signature verifies.
import type { Logger } from '@evds/runtime';

export interface InboxClient {
  /** Fire and forget: a slow or absent inbox never delays or fails the user's request. */
  registerSecret(label: string, secret: string): void;
  list(): Promise<{ requests: unknown[] }>;
  clear(): Promise<void>;
}

const REGISTER_TIMEOUT_MS = 2_000;
const READ_TIMEOUT_MS = 5_000;

export function createInboxClient(controlUrl: string, logger: Logger): InboxClient {
  const request = async (method: string, path: string, body?: unknown, timeoutMs = READ_TIMEOUT_MS) => {
    const res = await fetch(controlUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`the local inbox answered ${res.status} to ${method} ${path}`);
    return text;
  };
  return {
    registerSecret(label, secret) {
      request('POST', '/secrets', { label, secret }, REGISTER_TIMEOUT_MS).catch((err: unknown) => {
        // The secret itself is never logged; the label (a target id) is enough to find it.
        logger.warn({ label, err: String(err) }, 'could not register a signing secret with the local inbox');
      });
    },
    async list() {
      const parsed = JSON.parse(await request('GET', '/requests')) as { requests?: unknown };
      return { requests: Array.isArray(parsed.requests) ? parsed.requests : [] };
    },
    async clear() {
      await request('DELETE', '/requests');
    },
  };
}
