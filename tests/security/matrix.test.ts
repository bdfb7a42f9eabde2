// Proves authentication and tenancy on every route the OpenAPI document lists, generated from the
// document itself (a new route is covered, or fails the suite for lack of a route-table entry): every
// guarded route refuses each kind of bad credential (none, malformed, unknown, revoked key, expired or
// logged-out session, the other credential kind) with 401 {error, code} and changes nothing; every route
// that names ids answers 404 to another organization's real ids (targets of each kind, events, mailbox
// messages, keys) and leaves that organization's rows as they were; public routes need no credential.
// The same well-formed requests pass with the right credential, so each refusal is the credential's doing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { sha256 } from '@evds/domain';
import type { OpenApiDocument } from '@evds/http';
import {
  startTestApi,
  startTestIngest,
  type Client,
  type TestApi,
  type TestIngest,
  type TestResponse,
} from '@evds/testkit';
import { createOrgFixtures, mintSession, snapshotRows, type OrgFixtures } from './org-fixtures.ts';
import {
  documentedOps,
  routeRequests,
  unknownEntries,
  type AuthKind,
  type DocumentedOp,
  type RouteRequest,
} from './route-table.ts';

let api: TestApi;
let ingestService: TestIngest;
let ingest: Client;
let ops: DocumentedOp[];
let a: OrgFixtures;
let b: OrgFixtures;
/** Credentials of organization A that no longer (or never did) authenticate anyone. */
let dead: { unknownKey: string; revokedKey: string; expiredSession: string; loggedOutSession: string };

beforeAll(async () => {
  // Generous account limits: the matrix logs in and creates keys far more often than a person would.
  api = await startTestApi({
    LOGIN_RATE_LIMIT: '1000',
    LOGIN_ACCOUNT_RATE_LIMIT: '1000',
    SIGNUP_RATE_LIMIT: '1000',
    SESSIONS_PER_USER: '1000',
    API_KEYS_PER_ORG: '100',
  });
  ingestService = await startTestIngest(api.env);
  ingest = ingestService.request;
  const res = await api.request<OpenApiDocument>('/api/v1/openapi.json');
  ops = documentedOps(res.body);
  const db = api.database.db;
  a = await createOrgFixtures(db, api.request, ingest);
  b = await createOrgFixtures(db, api.request, ingest);

  const revoked = await api.request<{ id: string; key: string }>('/api/v1/keys', {
    key: a.ws.apiKey,
    body: { name: 'to revoke' },
  });
  expect(
    (await api.request(`/api/v1/keys/${revoked.body.id}`, { method: 'DELETE', key: a.ws.apiKey })).status,
  ).toBe(200);
  const login = async () =>
    (
      await api.request<{ session_token: string }>('/api/v1/auth/login', {
        body: { email: a.ws.email, password: a.ws.password },
      })
    ).body.session_token;
  const expired = await login();
  await db
    .updateTable('sessions')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('token_hash', '=', sha256(expired))
    .execute();
  const loggedOut = await login();
  expect((await api.request('/api/v1/auth/logout', { method: 'POST', session: loggedOut })).status).toBe(200);
  dead = {
    unknownKey: `evds_sk_${randomBytes(32).toString('hex')}`,
    revokedKey: revoked.body.key,
    expiredSession: expired,
    loggedOutSession: loggedOut,
  };
}, 60_000);

afterAll(async () => {
  await ingestService?.stop();
  await api?.stop();
});

function send(op: DocumentedOp, req: RouteRequest, headers: Record<string, string>): Promise<TestResponse> {
  const target = op.service === 'ingest' ? ingest : api.request;
  return target(req.path, {
    method: op.method,
    headers,
    ...(req.body === undefined ? {} : { body: req.body }),
  });
}

const isErrorBody = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as { error?: unknown }).error === 'string' &&
  typeof (body as { code?: unknown }).code === 'string';

const describeAnswer = (r: TestResponse): string => `${r.status} ${r.text.slice(0, 200)}`;

interface CredentialCase {
  name: string;
  /** Whether the case means anything on a route of this kind. */
  applies: (auth: AuthKind) => boolean;
  /** Each variant is sent on its own; every one must be refused. */
  variants: () => Record<string, string>[];
}

const guarded = (auth: AuthKind) => auth !== 'P';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const CASES: CredentialCase[] = [
  { name: 'no credential', applies: guarded, variants: () => [{}] },
  {
    name: 'malformed Authorization',
    applies: guarded,
    variants: () => [
      { authorization: `Basic ${Buffer.from(`${a.ws.apiKey}:`).toString('base64')}` },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${a.ws.apiKey} ${a.ws.apiKey}` },
      { authorization: `Token ${a.ws.apiKey}` },
      { authorization: `Bearer ${a.ws.apiKey.toUpperCase()}` },
    ],
  },
  { name: 'unknown API key', applies: guarded, variants: () => [bearer(dead.unknownKey)] },
  { name: 'revoked API key', applies: guarded, variants: () => [bearer(dead.revokedKey)] },
  {
    name: 'expired session',
    applies: guarded,
    variants: () => [{ 'x-session-token': dead.expiredSession }],
  },
  {
    name: 'logged-out session',
    applies: guarded,
    variants: () => [{ 'x-session-token': dead.loggedOutSession }],
  },
  {
    name: 'API key on a session-only route',
    applies: (auth) => auth === 'S',
    variants: () => [bearer(a.ws.apiKey), bearer(a.spareKey.key)],
  },
  {
    name: 'session on a key-only route',
    applies: (auth) => auth === 'K',
    variants: () => [{ 'x-session-token': a.session }],
  },
];

/** The right credential(s) of organization A for a route of this kind. */
async function goodCredentials(auth: AuthKind): Promise<Record<string, string>[]> {
  const session = async () => ({ 'x-session-token': await mintSession(api.database.db, a.ws) });
  switch (auth) {
    case 'P':
      return [{}];
    case 'K':
      return [bearer(a.ws.apiKey)];
    case 'S':
      return [await session()];
    case 'KS':
      return [bearer(a.ws.apiKey), await session()];
  }
}

describe('the security matrix', () => {
  it('has an entry for every route of the OpenAPI document, and none for routes it lacks', () => {
    expect(ops.length).toBeGreaterThan(30);
    const missing = ops.flatMap((op) => {
      try {
        routeRequests(op, a);
        return [];
      } catch (err) {
        return [(err as Error).message];
      }
    });
    expect(missing).toEqual([]);
    expect(unknownEntries(ops)).toEqual([]);
    // The ingest routes are in the document and are sent to ingest.
    expect(ops.filter((op) => op.service === 'ingest').map((op) => op.op)).toEqual([
      'POST /e/{endpoint_id}',
      'POST /t/{target_id}',
    ]);
  });

  it('public routes answer without a credential, and ignore a bad one', async () => {
    const failures: string[] = [];
    const publicOps = ops.filter((op) => op.auth === 'P');
    expect(publicOps.map((op) => op.op)).toEqual(
      expect.arrayContaining(['GET /health', 'POST /api/v1/auth/login', 'POST /api/v1/auth/signup']),
    );
    for (const op of publicOps) {
      for (const req of routeRequests(op, a)) {
        const variants: Record<string, string>[] = [
          {},
          { authorization: 'Basic x', 'x-session-token': dead.loggedOutSession },
        ];
        for (const headers of variants) {
          const r = await send(op, req, headers);
          const fellThrough =
            (r.status === 404 && r.body.error === 'route not found') || r.body.code === 'method_not_allowed';
          const broken = r.status >= 500 && r.body.code !== 'billing_disabled';
          if (r.status === 401 || fellThrough || broken)
            failures.push(`${op.op} ${JSON.stringify(headers)}: ${describeAnswer(r)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('every guarded route answers 401 {error, code} to every bad credential and changes nothing', async () => {
    const db = api.database.db;
    const failures: string[] = [];
    let cells = 0;
    for (const op of ops.filter((o) => guarded(o.auth))) {
      const [req] = routeRequests(op, a);
      if (!req) throw new Error(`${op.op}: no request`);
      for (const c of CASES.filter((x) => x.applies(op.auth))) {
        cells++;
        for (const headers of c.variants()) {
          const before = await snapshotRows(db);
          const r = await send(op, req, headers);
          const after = await snapshotRows(db);
          const code = r.body?.code;
          if (
            r.status !== 401 ||
            !isErrorBody(r.body) ||
            (code !== 'unauthenticated' && code !== 'wrong_credential_kind')
          )
            failures.push(`${op.op} × ${c.name} ${JSON.stringify(headers)}: ${describeAnswer(r)}`);
          if (JSON.stringify(before) !== JSON.stringify(after))
            failures.push(`${op.op} × ${c.name}: rows changed`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cells).toBeGreaterThan(ops.length * 5);
  });

  it("every route with ids answers 404 to another organization's ids and leaves its rows alone", async () => {
    const db = api.database.db;
    const failures: string[] = [];
    const withIds = ops.filter((op) => op.params.length > 0);
    expect(withIds.length).toBeGreaterThan(15);
    for (const op of withIds) {
      const requests = routeRequests(op, b);
      for (const req of requests) {
        for (const headers of await goodCredentials(op.auth)) {
          const before = await snapshotRows(db, [b.ws.orgId]);
          const r = await send(op, req, headers);
          const after = await snapshotRows(db, [b.ws.orgId]);
          const how = Object.keys(headers).join('');
          if (r.status !== 404 || !isErrorBody(r.body) || r.body.code !== 'not_found')
            failures.push(`${op.op} on B's ${req.label} (${how}): ${describeAnswer(r)}`);
          for (const [table, rows] of Object.entries(before))
            if (after[table] !== rows) failures.push(`${op.op} on B's ${req.label}: ${table} rows changed`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('the same requests with the right credential are not refused for authentication (control)', async () => {
    const failures: string[] = [];
    // Destructive routes last, so each request still finds what it names.
    const order = (op: DocumentedOp) => (op.method === 'DELETE' ? 2 : op.path.includes('logout') ? 1 : 0);
    for (const op of [...ops].filter((o) => guarded(o.auth)).sort((x, y) => order(x) - order(y))) {
      for (const req of routeRequests(op, a)) {
        // A session may delete the key the other requests authenticate with: deletes go with the key.
        const credentials = await goodCredentials(op.auth);
        for (const headers of op.method === 'DELETE' ? credentials.slice(0, 1) : credentials) {
          const r = await send(op, req, headers);
          if (r.status === 401 || (r.status >= 500 && r.body.code !== 'billing_disabled'))
            failures.push(`${op.op} on A's ${req.label}: ${describeAnswer(r)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
