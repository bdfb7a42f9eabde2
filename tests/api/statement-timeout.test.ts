// Proves that a request whose SQL runs too long gives its pooled connection back instead of holding it:
// with DB_STATEMENT_TIMEOUT_MS=500, requests really blocked in Postgres (another connection holds
// LOCK TABLE events IN ACCESS EXCLUSIVE MODE in an open transaction, so reading or replaying events
// waits on the lock) answer within a bound 503 {error, code: 'unavailable'} with Retry-After and a
// message saying the database took too long, never a hang or a 500; a transaction (replay) is rolled
// back with nothing written; more such requests at once than the pool has connections all answer the
// same; once the lock is gone the same pool serves every request again; and ingestion (its own
// service, the same option) answers 503 rather than hanging or answering 202 for an uncommitted item.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadIngestConfig } from '@evds/config';
import { createDb, insertItem, type Db } from '@evds/db';
import { newId } from '@evds/domain';
import { createIngestService, type IngestService } from '@evds/ingest';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

/**
 * Long enough that no statement of a request outlives it on a loaded machine once the lock is gone (at
 * 150 ms, one of twelve did in a CI run), short enough that twelve blocked requests end well in time.
 */
const TIMEOUT_MS = 500;
/** Well above the time-out, well below anything that looks like a hang. */
const ANSWER_BOUND_MS = 5_000;

let api: TestApi;
let ws: TestWorkspace;
let locker: Db;
let eventId: string;
let targetId: string;
let ingest: IngestService;

beforeAll(async () => {
  api = await startTestApi({ DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS), DB_POOL_SIZE: '4' });
  ws = await seedWorkspace(api.database.db);
  const target = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'webhook', name: 'hook', url: 'https://127.0.0.1:9/hook' },
  });
  targetId = target.body.target.id;
  eventId = newId();
  await insertItem(api.database.db, {
    id: eventId,
    orgId: ws.orgId,
    targetId,
    kind: 'webhook',
    eventType: null,
    correlationId: null,
    payload: Buffer.from('{"n":1}'),
    requestId: null,
  });
  locker = createDb({ url: api.database.url, poolSize: 1, applicationName: 'evds-test-locker' });
  ingest = createIngestService(loadIngestConfig(api.env));
  await ingest.start();
});
afterAll(async () => {
  await ingest.destroy();
  await locker.destroy();
  await api.stop();
});

/** Holds an exclusive lock on the events table until the returned function is called. */
async function lockEvents(): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const tx = locker.transaction().execute(async (t) => {
    await sql`lock table events in access exclusive mode`.execute(t);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await tx;
  };
}

/** A request with a deadline: a hang fails the test instead of stalling it. */
async function timed(path: string, method = 'GET', base = api.baseUrl) {
  const started = Date.now();
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'application/json' },
    body: method === 'POST' && base !== api.baseUrl ? '{"n":2}' : undefined,
    signal: AbortSignal.timeout(ANSWER_BOUND_MS * 2),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, headers: res.headers, body, ms: Date.now() - started };
}

describe('statement time-out', () => {
  it('a read blocked on a lock answers 503 with Retry-After within the bound, then the pool serves again', async () => {
    const unlock = await lockEvents();
    try {
      const r = await timed('/api/v1/events');
      expect(r.status).toBe(503);
      expect(r.body).toEqual({
        error: 'the request took too long in the database; retry later or narrow the query',
        code: 'unavailable',
      });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(r.ms).toBeLessThan(ANSWER_BOUND_MS);
    } finally {
      await unlock();
    }
    const after = await timed('/api/v1/events');
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(1);
  });

  it('a replay (a transaction) blocked on the lock answers 503 and writes nothing', async () => {
    const unlock = await lockEvents();
    try {
      const r = await timed(`/api/v1/events/${eventId}/replay`, 'POST');
      expect([r.status, r.body.code]).toEqual([503, 'unavailable']);
      expect(r.ms).toBeLessThan(ANSWER_BOUND_MS);
    } finally {
      await unlock();
    }
    const events = await api.database.db.selectFrom('events').select('id').execute();
    expect(events.map((e) => e.id)).toEqual([eventId]);
  });

  it('three times more blocked requests than pooled connections all answer 503, and the pool recovers', async () => {
    const unlock = await lockEvents();
    try {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 12 }, () => timed('/api/v1/events')));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(503));
      // 12 requests through 4 connections: three rounds of the time-out, nowhere near a hang.
      expect(Date.now() - started).toBeLessThan(ANSWER_BOUND_MS);
    } finally {
      await unlock();
    }
    const again = await Promise.all(Array.from({ length: 12 }, () => timed('/api/v1/events')));
    expect(again.map((a) => a.status)).toEqual(Array(12).fill(200));
  });

  it('ingestion blocked on the lock answers 503, never 202, and commits nothing', async () => {
    const ingestUrl = `http://127.0.0.1:${ingest.port()}`;
    const unlock = await lockEvents();
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => timed(`/t/${targetId}`, 'POST', ingestUrl)),
      );
      expect(answers.map((a) => [a.status, a.body.code])).toEqual(Array(5).fill([503, 'unavailable']));
      for (const a of answers) expect(a.ms).toBeLessThan(ANSWER_BOUND_MS);
    } finally {
      await unlock();
    }
    expect(await api.database.db.selectFrom('events').select('id').execute()).toHaveLength(1);
  });
});
