// Proves that a session (the dashboard) reads mailboxes read-only, over real HTTP against the API and an
// ingest service sharing one database: with a session, listing a mailbox and reading a message answer
// exactly what the API key's reads answer (same messages, same states, payloads byte for byte), and change
// nothing a key's read would not: no row of the organization moves (states, claims, leases, usage),
// paging and the status filter work alike; another organization's mailbox and message are 404 to a
// session as to a key; claim and ack still refuse a session (401 wrong_credential_kind), writing nothing;
// the OpenAPI document lists both reads with either credential, claim and ack with keys only.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { OpenApiDocument } from '@evds/http';
import {
  seedWorkspace,
  startTestApi,
  startTestIngest,
  type Client,
  type TestApi,
  type TestIngest,
  type TestWorkspace,
} from '@evds/testkit';
import { sql } from 'kysely';

let api: TestApi;
let ingestService: TestIngest;
let ingest: Client;

beforeAll(async () => {
  api = await startTestApi();
  ingestService = await startTestIngest(api.env);
  ingest = ingestService.request;
});
afterAll(async () => {
  await ingestService.stop();
  await api.stop();
});

interface Message {
  id: string;
  state: string;
  test: boolean;
}
interface Page {
  messages: Message[];
  next_cursor: string | null;
}

async function loginOf(ws: TestWorkspace): Promise<string> {
  const r = await api.request<{ session_token: string }>('/api/v1/auth/login', {
    body: { email: ws.email, password: ws.password },
  });
  expect(r.status).toBe(200);
  return r.body.session_token;
}

/** A workspace with a mailbox holding three messages: one claimed by the key, one acknowledged, one unread. */
async function mailboxWithMessages() {
  const ws = await seedWorkspace(api.database.db);
  const made = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'box' },
  });
  expect(made.status).toBe(201);
  const mailbox = made.body.target.id;
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    const r = await ingest<{ id: string }>(`/t/${mailbox}`, {
      key: ws.apiKey,
      body: `{"n": ${n},  "kept":"as sent"}`,
    });
    expect(r.status).toBe(202);
    ids.push(r.body.id);
  }
  const [claimed, acked] = ids;
  for (const id of [claimed, acked])
    expect(
      (await api.request(`/api/v1/mailbox-messages/${id}/claim`, { key: ws.apiKey, body: {} })).status,
    ).toBe(200);
  expect(
    (await api.request(`/api/v1/mailbox-messages/${acked}/ack`, { key: ws.apiKey, body: {} })).status,
  ).toBe(200);
  return { ws, mailbox, ids, session: await loginOf(ws) };
}

/** Every row of the organization's mailbox messages and usage, as text: any change shows. */
async function orgRows(orgId: string): Promise<string[]> {
  const r = await sql<{ row: string }>`
    select t::text as row from mailbox_messages t where org_id = ${orgId}
    union all select u::text from usage_records u where org_id = ${orgId}
    order by 1`.execute(api.database.db);
  return r.rows.map((x) => x.row);
}

describe('mailbox reads with a session', () => {
  it("answer exactly what the key's reads answer, and change nothing", async () => {
    const { ws, mailbox, ids, session } = await mailboxWithMessages();
    const before = await orgRows(ws.orgId);
    const queries = ['', '?status=UNREAD', '?status=CLAIMED', '?status=ACKNOWLEDGED', '?limit=1'];
    for (const q of queries) {
      const byKey = await api.request<Page>(`/api/v1/mailboxes/${mailbox}/messages${q}`, { key: ws.apiKey });
      const bySession = await api.request<Page>(`/api/v1/mailboxes/${mailbox}/messages${q}`, { session });
      expect([q, bySession.status]).toEqual([q, 200]);
      expect(bySession.text).toBe(byKey.text);
    }
    const all = await api.request<Page>(`/api/v1/mailboxes/${mailbox}/messages`, { session });
    expect(all.body.messages.map((m) => [m.id, m.state, m.test])).toEqual([
      [ids[0], 'CLAIMED', false],
      [ids[1], 'ACKNOWLEDGED', false],
      [ids[2], 'UNREAD', false],
    ]);
    expect(all.text).toContain('"payload":{"n": 1,  "kept":"as sent"}');
    const page = await api.request<Page>(`/api/v1/mailboxes/${mailbox}/messages?limit=2`, { session });
    const next = await api.request<Page>(
      `/api/v1/mailboxes/${mailbox}/messages?limit=2&after=${page.body.next_cursor}`,
      { session },
    );
    expect(next.body.messages.map((m) => m.id)).toEqual([ids[2]]);
    for (const id of ids) {
      const byKey = await api.request(`/api/v1/mailbox-messages/${id}`, { key: ws.apiKey });
      const bySession = await api.request(`/api/v1/mailbox-messages/${id}`, { session });
      expect([id, bySession.status]).toEqual([id, 200]);
      expect(bySession.text).toBe(byKey.text);
    }
    expect(await orgRows(ws.orgId)).toEqual(before);
  });

  it("answer 404 to another organization's mailbox and message", async () => {
    const a = await mailboxWithMessages();
    const b = await mailboxWithMessages();
    const before = await orgRows(b.ws.orgId);
    const list = await api.request(`/api/v1/mailboxes/${b.mailbox}/messages`, { session: a.session });
    expect([list.status, list.body]).toEqual([404, { error: 'mailbox not found', code: 'not_found' }]);
    for (const id of b.ids) {
      const r = await api.request(`/api/v1/mailbox-messages/${id}`, { session: a.session });
      expect([r.status, r.body.code]).toEqual([404, 'not_found']);
    }
    expect(await orgRows(b.ws.orgId)).toEqual(before);
  });

  it('leave claim and ack to API keys: a session is refused with 401, writing nothing', async () => {
    const { ws, ids, session } = await mailboxWithMessages();
    const before = await orgRows(ws.orgId);
    for (const id of ids)
      for (const action of ['claim', 'ack']) {
        const r = await api.request(`/api/v1/mailbox-messages/${id}/${action}`, { session, body: {} });
        expect([action, r.status, r.body.code]).toEqual([action, 401, 'wrong_credential_kind']);
      }
    expect(await orgRows(ws.orgId)).toEqual(before);
  });

  it('are documented with either credential, claim and ack with keys only', async () => {
    const doc = (await api.request<OpenApiDocument>('/api/v1/openapi.json')).body;
    const security = (path: string, method: string) =>
      (
        (doc.paths?.[path] as Record<string, { security?: Record<string, unknown>[] }> | undefined)?.[method]
          ?.security ?? []
      )
        .flatMap((s) => Object.keys(s))
        .sort();
    expect(security('/api/v1/mailboxes/{mailbox_id}/messages', 'get')).toEqual(['apiKey', 'sessionToken']);
    expect(security('/api/v1/mailbox-messages/{message_id}', 'get')).toEqual(['apiKey', 'sessionToken']);
    expect(security('/api/v1/mailbox-messages/{message_id}/claim', 'post')).toEqual(['apiKey']);
    expect(security('/api/v1/mailbox-messages/{message_id}/ack', 'post')).toEqual(['apiKey']);
  });
});
