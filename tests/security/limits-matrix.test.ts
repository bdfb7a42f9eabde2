// The abuse limits on every route the OpenAPI document lists, generated from the document like the
// credential matrix: failed authentication from one address is cut off on every guarded route (api and
// ingest) before any lookup; every guarded API route counts against its credential's rate limit; a
// suspended workspace cannot send through any route that sends or spends; a read that outlives the
// statement time-out answers 503 with Retry-After, never a 500 or a hang; every create route stops at
// the targets cap; login and the disabled signup route answer their limits' 429. Every refusal has the
// contract's shape ({error, code}, Retry-After on 429 and 503) and changes no row.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createApiService } from '@evds/api';
import { loadApiConfig, loadIngestConfig, type Env } from '@evds/config';
import type { OpenApiDocument } from '@evds/http';
import { createIngestService } from '@evds/ingest';
import { bumpCacheGeneration, createRedis } from '@evds/queue';
import { client, startTestApi, type Client, type TestApi, type TestResponse } from '@evds/testkit';
import { sql } from 'kysely';
import { createOrgFixtures, mintSession, snapshotRows, type OrgFixtures } from './org-fixtures.ts';
import { documentedOps, routeRequests, type DocumentedOp, type RouteRequest } from './route-table.ts';

const AUTH_FAILURES = 3;
let api: TestApi;
let ingest: Client;
let stopIngest: () => Promise<void>;
let ops: DocumentedOp[];
let a: OrgFixtures;

/** Another api (and ingest) over the same database and Redis prefix, with some settings changed. */
async function withServices<T>(
  overrides: Env,
  run: (s: { api: Client; ingest: Client }) => Promise<T>,
): Promise<T> {
  const env = { ...api.env, ...overrides };
  const apiService = createApiService(loadApiConfig(env));
  const ingestService = createIngestService(loadIngestConfig(env));
  await Promise.all([apiService.start(), ingestService.start()]);
  try {
    return await run({
      api: client(`http://127.0.0.1:${apiService.port()}`),
      ingest: client(`http://127.0.0.1:${ingestService.port()}`),
    });
  } finally {
    await Promise.all([apiService.destroy(), ingestService.destroy()]);
  }
}

beforeAll(async () => {
  api = await startTestApi({
    TRUST_PROXY: 'loopback',
    AUTH_FAILURE_LIMIT: String(AUTH_FAILURES),
    LOGIN_RATE_LIMIT: '1000',
    LOGIN_ACCOUNT_RATE_LIMIT: '1000',
    SESSIONS_PER_USER: '1000',
    API_KEYS_PER_ORG: '100',
  });
  const ingestService = createIngestService(loadIngestConfig(api.env));
  await ingestService.start();
  stopIngest = () => ingestService.destroy();
  ingest = client(`http://127.0.0.1:${ingestService.port()}`);
  ops = documentedOps((await api.request<OpenApiDocument>('/api/v1/openapi.json')).body);
  a = await createOrgFixtures(api.database.db, api.request, ingest);
}, 60_000);

afterAll(async () => {
  await stopIngest?.();
  await api?.stop();
});

const guarded = (op: DocumentedOp) => op.auth !== 'P';
const firstRequest = (op: DocumentedOp, org: OrgFixtures): RouteRequest => {
  const [req] = routeRequests(op, org);
  if (!req) throw new Error(`${op.op}: no request`);
  return req;
};

function send(
  services: { api: Client; ingest: Client },
  op: DocumentedOp,
  req: RouteRequest,
  headers: Record<string, string>,
): Promise<TestResponse> {
  const target = op.service === 'ingest' ? services.ingest : services.api;
  return target(req.path, {
    method: op.method,
    headers,
    ...(req.body === undefined ? {} : { body: req.body }),
  });
}

/** Undefined when the answer is the refusal expected, else what was wrong with it. */
function refusal(r: TestResponse, status: number, code: string): string | undefined {
  const body = r.body as { error?: unknown; code?: unknown } | undefined;
  if (r.status !== status || typeof body?.error !== 'string' || body.code !== code)
    return `${r.status} ${r.text.slice(0, 160)}`;
  if (status === 429 || status === 503) {
    const wait = Number(r.headers.get('retry-after'));
    if (!Number.isInteger(wait) || wait < 1) return `Retry-After ${r.headers.get('retry-after')}`;
  }
  return undefined;
}

const key = (k: string) => ({ authorization: `Bearer ${k}` });
const own = () => ({ api: api.request, ingest });
/** Organization A's credential of the kind the route takes. */
const rightCredential = (op: DocumentedOp) =>
  op.auth === 'S' ? { 'x-session-token': a.session } : key(a.ws.apiKey);

describe('the limits matrix', () => {
  it('cuts off an address after repeated failed authentication, on every guarded route, before any lookup', async () => {
    const failures: string[] = [];
    const unknown = key(`evds_sk_${randomBytes(32).toString('hex')}`);
    let n = 0;
    for (const op of ops.filter(guarded)) {
      const req = firstRequest(op, a);
      const from = { 'x-forwarded-for': `2001:db8:${(++n).toString(16)}::1` };
      const before = await snapshotRows(api.database.db);
      for (let i = 0; i < AUTH_FAILURES; i++) {
        const r = await send(own(), op, req, { ...from, ...unknown });
        if (r.status !== 401) failures.push(`${op.op} failure ${i + 1}: ${r.status}`);
      }
      const cut = refusal(await send(own(), op, req, { ...from, ...unknown }), 429, 'rate_limited');
      if (cut) failures.push(`${op.op} after ${AUTH_FAILURES} failures: ${cut}`);
      // Refused before the credential is even looked at: the right one is refused too, from there.
      const still = refusal(
        await send(own(), op, req, { ...from, ...rightCredential(op) }),
        429,
        'rate_limited',
      );
      if (still) failures.push(`${op.op} good credential from a blocked address: ${still}`);
      if (JSON.stringify(await snapshotRows(api.database.db)) !== JSON.stringify(before))
        failures.push(`${op.op}: rows changed`);
    }
    expect(failures).toEqual([]);
    expect(n).toBeGreaterThan(30);
  });

  it('counts every guarded API route against its credential, and answers 429 past the limit', async () => {
    const db = api.database.db;
    const failures: string[] = [];
    await withServices({ API_RATE_LIMIT: '2', API_RATE_WINDOW_SECONDS: '600' }, async (limited) => {
      for (const op of ops.filter((o) => guarded(o) && o.service === 'api')) {
        // A fresh credential per route, of the kind the route takes, spent by two other calls.
        let headers: Record<string, string>;
        if (op.auth === 'K') {
          const made = await api.request<{ key: string }>('/api/v1/keys', {
            key: a.ws.apiKey,
            body: { name: 'k' },
          });
          headers = key(made.body.key);
        } else headers = { 'x-session-token': await mintSession(db, a.ws) };
        const spend = op.auth === 'K' ? `/api/v1/mailboxes/${a.targets.mailbox}/messages` : '/api/v1/auth/me';
        for (let i = 0; i < 2; i++) {
          const r = await limited.api(spend, { headers });
          if (r.status !== 200) failures.push(`${op.op}: spending call ${i + 1} answered ${r.status}`);
        }
        const before = await snapshotRows(db);
        const wrong = refusal(await send(limited, op, firstRequest(op, a), headers), 429, 'rate_limited');
        if (wrong) failures.push(`${op.op} past the credential's limit: ${wrong}`);
        if (JSON.stringify(await snapshotRows(db)) !== JSON.stringify(before))
          failures.push(`${op.op}: rows changed`);
      }
    });
    expect(failures).toEqual([]);
  });

  it('refuses every route that sends or spends while the workspace is suspended or pending (402)', async () => {
    const db = api.database.db;
    const c = await createOrgFixtures(db, api.request, ingest);
    const spending = [
      'POST /e/{endpoint_id}',
      'POST /t/{target_id}',
      'POST /api/v1/events/{id}/replay',
      'POST /api/v1/targets/{id}/recover',
      'POST /api/v1/targets/{id}/test',
      'POST /api/v1/keys',
    ];
    expect(ops.map((o) => o.op)).toEqual(expect.arrayContaining(spending));
    const redis = createRedis(api.env.REDIS_URL ?? '', { role: 'client', name: 'limits-matrix' });
    const failures: string[] = [];
    try {
      for (const status of ['suspended', 'pending'] as const) {
        await db
          .updateTable('organizations')
          .set({ billing_status: status })
          .where('id', '=', c.ws.orgId)
          .execute();
        await bumpCacheGeneration(redis, api.env.REDIS_PREFIX ?? '');
        for (const op of ops.filter((o) => spending.includes(o.op))) {
          const before = await snapshotRows(db, [c.ws.orgId]);
          const wrong = refusal(
            await send(own(), op, firstRequest(op, c), key(c.ws.apiKey)),
            402,
            'payment_required',
          );
          if (wrong) failures.push(`${op.op} while ${status}: ${wrong}`);
          if (JSON.stringify(await snapshotRows(db, [c.ws.orgId])) !== JSON.stringify(before))
            failures.push(`${op.op} while ${status}: rows changed`);
        }
      }
    } finally {
      redis.disconnect();
    }
    expect(failures).toEqual([]);
  });

  it('answers 503 with Retry-After, never a 500 or a hang, when a statement outlives the time-out', async () => {
    const failures: string[] = [];
    const answered: Record<string, number> = {};
    const TIMEOUT_MS = 300;
    await withServices({ DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) }, async (slow) => {
      // Another session holds the data tables locked, as a long migration or a runaway query would.
      await api.database.db.connection().execute(async (conn) => {
        await sql`begin`.execute(conn);
        await sql`lock table targets, events, delivery_attempts, mailbox_messages, recoveries, usage_records, usage_monthly in access exclusive mode`.execute(
          conn,
        );
        try {
          const reads = ops.filter((o) => guarded(o) && (o.method === 'GET' || o.service === 'ingest'));
          for (const op of reads) {
            const started = Date.now();
            const r = await send(slow, op, firstRequest(op, a), rightCredential(op));
            const ms = Date.now() - started;
            // Checkout and portal answer 503 billing_disabled by design during the beta.
            const why = r.body?.code === 'billing_disabled' ? 'billing_disabled' : r.status;
            answered[why] = (answered[why] ?? 0) + 1;
            const wrong = r.status >= 500 && why !== 'billing_disabled' && refusal(r, 503, 'unavailable');
            if (wrong) failures.push(`${op.op}: ${wrong}`);
            if (ms > TIMEOUT_MS + 3000) failures.push(`${op.op}: answered after ${ms} ms`);
          }
        } finally {
          await sql`rollback`.execute(conn);
        }
      });
      // The pool is whole afterwards.
      const after = await slow.api('/api/v1/events', { key: a.ws.apiKey });
      if (after.status !== 200) failures.push(`after the lock: ${after.status}`);
    });
    console.log(`statement time-out matrix, answers by status: ${JSON.stringify(answered)}`);
    expect(failures).toEqual([]);
    expect(answered[503] ?? 0).toBeGreaterThanOrEqual(10);
  });

  it('stops every create route at the targets cap (409), all kinds counted together', async () => {
    const db = api.database.db;
    const { n } = await db
      .selectFrom('targets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', a.ws.orgId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const creates = ops.filter((o) => o.method === 'POST' && /^\/api\/v1\/(targets|endpoints)$/.test(o.path));
    expect(creates.map((o) => o.op).sort()).toEqual(['POST /api/v1/endpoints', 'POST /api/v1/targets']);
    const failures: string[] = [];
    await withServices({ TARGETS_PER_ORG: String(n) }, async (capped) => {
      const bodies = [
        { kind: 'webhook', name: 'one more', url: 'https://93.184.215.14/more' },
        { kind: 'mailbox', name: 'one more' },
      ];
      for (const op of creates) {
        for (const body of op.path.endsWith('endpoints')
          ? [{ name: 'more', url: 'https://93.184.215.14/m' }]
          : bodies) {
          const before = await snapshotRows(db, [a.ws.orgId]);
          const wrong = refusal(
            await send(capped, op, { label: '', path: op.path, params: {}, body }, key(a.ws.apiKey)),
            409,
            'target_limit',
          );
          if (wrong) failures.push(`${op.op} ${JSON.stringify(body)}: ${wrong}`);
          if (JSON.stringify(await snapshotRows(db, [a.ws.orgId])) !== JSON.stringify(before))
            failures.push(`${op.op}: rows changed`);
        }
      }
    });
    expect(failures).toEqual([]);
  });

  it("answers login's and signup's limits with the contract's 429", async () => {
    const login = { email: a.ws.email, password: 'wrong password' };
    await withServices({ LOGIN_RATE_LIMIT: '2', SIGNUP_RATE_LIMIT: '3' }, async (limited) => {
      const from = { 'x-forwarded-for': '203.0.113.77' };
      const logins = [];
      for (let i = 0; i < 3; i++)
        logins.push(await limited.api('/api/v1/auth/login', { headers: from, body: login }));
      expect(logins.map((r) => r.status)).toEqual([401, 401, 429]);
      expect(refusal(logins[2] as TestResponse, 429, 'rate_limited')).toBeUndefined();
      expect(logins[2]?.body.error).toBe('too many login attempts, please try again later');
      const signups = [];
      for (let i = 0; i < 4; i++)
        signups.push(
          await limited.api('/api/v1/auth/signup', { headers: from, body: { email: 'x@example.test' } }),
        );
      expect(signups.map((r) => r.status)).toEqual([403, 403, 403, 429]);
      expect(refusal(signups[3] as TestResponse, 429, 'rate_limited')).toBeUndefined();
    });
  });
});
