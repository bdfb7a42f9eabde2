// Real resources of every kind in one organization, made through the API and ingest as a customer would
// (the a2a target straight in Postgres: creating one through the API needs a live agent), and a
// snapshot of an organization's rows to prove that a refused request changed nothing.
import { createA2aTarget, createSession, type Db } from '@evds/db';
import { newId, newSessionToken } from '@evds/domain';
import { seedWorkspace, type Client, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

export interface OrgFixtures {
  ws: TestWorkspace;
  /** A session of the workspace's user, from POST /api/v1/auth/login. */
  session: string;
  /** A second API key (the first one, ws.apiKey with ws.keyId, authenticates the fixtures' requests). */
  spareKey: { id: string; key: string };
  targets: { webhook: string; endpoint: string; mailbox: string; a2a: string };
  events: { webhook: string; endpoint: string; a2a: string };
  message: string;
  /** A recovery of the webhook target (running: the security suites start no delivery worker). */
  recovery: string;
}

const PUBLIC_URL = 'https://93.184.215.14/hook';

async function ok<T>(what: string, res: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what} answered ${r.status}: ${r.text}`);
  return r.body;
}

/**
 * A workspace holding a webhook target, a legacy endpoint, a mailbox, an a2a target, events, a message
 * and a recovery.
 */
export async function createOrgFixtures(db: Db, api: Client, ingest: Client): Promise<OrgFixtures> {
  const ws = await seedWorkspace(db);
  const key = ws.apiKey;
  const login = await ok(
    'login',
    api<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: ws.email, password: ws.password },
    }),
  );
  const spare = await ok(
    'key creation',
    api<{ id: string; key: string }>('/api/v1/keys', { key, body: { name: 'spare' } }),
  );

  const target = (body: object) =>
    ok('target creation', api<{ target: { id: string } }>('/api/v1/targets', { key, body })).then(
      (b) => b.target.id,
    );
  const webhook = await target({ kind: 'webhook', name: 'hook', url: PUBLIC_URL });
  const mailbox = await target({ kind: 'mailbox', name: 'box' });
  const endpoint = (
    await ok(
      'endpoint creation',
      api<{ id: string }>('/api/v1/endpoints', { key, body: { name: 'legacy', url: PUBLIC_URL } }),
    )
  ).id;
  const a2a = (
    await createA2aTarget(db, {
      id: newId(),
      org_id: ws.orgId,
      name: 'agent',
      agent_card_url: 'https://93.184.215.14/.well-known/agent-card.json',
      card: {
        iface: { url: 'https://93.184.215.14/a2a', binding: 'HTTP+JSON', version: '1.0' },
        card: null,
        etag: null,
        fetchedAt: new Date(),
      },
      auth_type: 'none',
      auth_token: null,
    })
  ).id;

  const accept = (route: 'e' | 't', id: string) =>
    ok(`ingest into ${id}`, ingest<{ id: string }>(`/${route}/${id}`, { key, body: { n: 1 } })).then(
      (b) => b.id,
    );
  return {
    ws,
    session: login.session_token,
    spareKey: { id: spare.id, key: spare.key },
    targets: { webhook, endpoint, mailbox, a2a },
    events: {
      webhook: await accept('t', webhook),
      endpoint: await accept('e', endpoint),
      a2a: await accept('t', a2a),
    },
    message: await accept('t', mailbox),
    recovery: (
      await ok(
        'recovery',
        api<{ id: string }>(`/api/v1/targets/${webhook}/recover`, { key, body: { since: 0 } }),
      )
    ).id,
  };
}

/** A new session of the workspace's user, written straight to Postgres (no login, no rate limit). */
export async function mintSession(db: Db, ws: TestWorkspace): Promise<string> {
  const { token, hash } = newSessionToken();
  await createSession(
    db,
    {
      id: newId(),
      token_hash: hash,
      user_id: ws.userId,
      org_id: ws.orgId,
      expires_at: new Date(Date.now() + 3600_000),
    },
    1000,
  );
  return token;
}

/** Every table that holds an organization's data, with the column naming the organization. */
const ORG_TABLES = [
  ['organizations', 'id'],
  ['users', 'org_id'],
  ['sessions', 'org_id'],
  ['api_keys', 'org_id'],
  ['targets', 'org_id'],
  ['events', 'org_id'],
  ['delivery_attempts', 'org_id'],
  ['mailbox_messages', 'org_id'],
  ['usage_records', 'org_id'],
  ['usage_monthly', 'org_id'],
  ['idempotency_keys', 'org_id'],
  ['recoveries', 'org_id'],
] as const;

/**
 * Archived payloads are written once and only ever dropped (retention), so whether one is there stands
 * for it: hashing megabytes of payloads for every snapshot would make the suites crawl. A key's
 * `last_used_at` is left out: an accepted request writes it after its answer, off the request path,
 * so it may land while a later, refused request is being watched.
 */
const rowText = (table: string) =>
  table === 'events' || table === 'mailbox_messages'
    ? sql`(to_jsonb(t) - 'payload')::text || (t.payload is null)::text`
    : table === 'api_keys'
      ? sql`(to_jsonb(t) - 'last_used_at')::text`
      : sql`t::text`;

/** A digest of every row of each table, for the organizations given (all when none are). */
export async function snapshotRows(db: Db, orgIds?: string[]): Promise<Record<string, string>> {
  const parts = ORG_TABLES.map(([table, column]) => {
    const where = orgIds ? sql`where t.${sql.ref(column)} = any(${orgIds})` : sql``;
    const text = rowText(table);
    return sql<string>`(select md5(coalesce(string_agg(${text}, E'\n' order by ${text}), '')) from ${sql.table(table)} t ${where})`;
  });
  const row = await sql<Record<string, string>>`select ${sql.join(
    parts.map((p, i) => sql`${p} as ${sql.ref(ORG_TABLES[i]?.[0] ?? '')}`),
  )}`.execute(db);
  return row.rows[0] ?? {};
}
