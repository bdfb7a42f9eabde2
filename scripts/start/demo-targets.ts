// The demo workspace's two targets of the first five minutes: a webhook "Local inbox" delivering to
// the local inbox, and a mailbox. Created once through the API with the demo key; their ids (and the
// webhook's signing secret, shown only at creation) are kept under .data/, and a later start reuses
// them unless they were deleted or the inbox moved to another port.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface DemoTargets {
  inbox: { id: string; url: string; secret: string };
  mailbox: { id: string };
}

interface Options {
  apiUrl: string;
  apiKey: string;
  /** Where the "Local inbox" webhook delivers, e.g. https://127.0.0.1:8443/hooks/local-inbox. */
  inboxUrl: string;
  stateFile: string;
}

export const INBOX_TARGET_NAME = 'Local inbox';
export const MAILBOX_TARGET_NAME = 'Demo mailbox';

export async function ensureDemoTargets(opts: Options): Promise<DemoTargets> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${opts.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  const exists = async (id: string) => {
    const r = await call('GET', `/api/v1/targets/${encodeURIComponent(id)}`);
    if (r.status === 200) return true;
    if (r.status === 404) return false;
    throw new Error(`GET /api/v1/targets/${id} answered ${r.status}: ${JSON.stringify(r.body)}`);
  };
  const create = async (body: Record<string, string>) => {
    const r = await call('POST', '/api/v1/targets', body);
    if (r.status !== 201)
      throw new Error(`creating the target "${body.name}" answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body.target as { id: string; secret?: string };
  };

  const kept = readState(opts.stateFile);
  let inbox = kept?.inbox;
  if (!inbox || inbox.url !== opts.inboxUrl || !(await exists(inbox.id))) {
    // An inbox target left behind by a port change would only fail its deliveries: it goes.
    if (inbox && inbox.url !== opts.inboxUrl) await call('DELETE', `/api/v1/targets/${inbox.id}`);
    const t = await create({ kind: 'webhook', name: INBOX_TARGET_NAME, url: opts.inboxUrl });
    if (!t.secret) throw new Error('the API created the webhook target without showing its signing secret');
    inbox = { id: t.id, url: opts.inboxUrl, secret: t.secret };
  }
  let mailbox = kept?.mailbox;
  if (!mailbox || !(await exists(mailbox.id))) {
    mailbox = { id: (await create({ kind: 'mailbox', name: MAILBOX_TARGET_NAME })).id };
  }
  const state: DemoTargets = { inbox, mailbox };
  writeFileSync(opts.stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
  chmodSync(opts.stateFile, 0o600);
  return state;
}

function readState(file: string): Partial<DemoTargets> | null {
  if (!existsSync(file)) return null;
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoTargets>;
    return {
      inbox: s.inbox?.id && s.inbox.secret && s.inbox.url ? s.inbox : undefined,
      mailbox: s.mailbox?.id ? s.mailbox : undefined,
    };
  } catch {
    return null;
  }
}

/** Tells the inbox the webhook's secret (again: its registry may be new), labelled with the target id. */
export async function registerInboxSecret(controlUrl: string, t: DemoTargets['inbox']): Promise<void> {
  const res = await fetch(`${controlUrl}/secrets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label: t.id, secret: t.secret }),
  });
  if (res.status !== 204)
    throw new Error(`the local inbox refused the secret: ${res.status} ${await res.text()}`);
}
