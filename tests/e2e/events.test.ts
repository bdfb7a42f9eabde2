// Proves the events and stats API over real HTTP against api, ingest and delivery-worker running as
// separate processes, delivering to a real HTTPS receiver: the list is newest first with exact
// `total`/`limit`/`offset` paging, every filter alone and combined, strict query validation (400) and
// ISO 8601 millisecond timestamps; an event reads back with its payload byte for byte and its attempts;
// a replay is a new event delivered again under a new `webhook-id` with `source_event_id` set and no
// usage record, leaving the original's attempts alone and moving it to REPLAYED only once it had
// settled (DELIVERED or EXPIRED), refused with 409 for a disabled or deleted target; stats count
// exactly the events and attempts the test caused, per window; and another organization sees none of
// it (404 for each id, zeros in lists and stats).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  seedWorkspace,
  type Receiver,
  type Received,
  type Stack,
  type TestWorkspace,
  startStackWithReceiver,
} from '@evds/testkit';
import { sql } from 'kysely';
import { LATENCY_RESOLUTION } from '@evds/db';
import {
  createWebhookTarget,
  eventCount,
  pollUntil,
  usageCount,
  waitForStatus,
  type EventView,
} from './helpers.ts';

const REFUSING_URL = 'https://127.0.0.1:1/';
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ID = /^[0-9a-f]{32}$/;
const STATUSES = ['QUEUED', 'DELIVERED', 'FAILED', 'RETRYING', 'EXPIRED', 'REPLAYED'];

let stack: Stack;
let receiver: Receiver;
/** While false, `/gate` answers 503, keeping its events RETRYING. */
let gateOpen = false;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    behaviour: (req) => {
      if (req.path.startsWith('/fail')) return { status: 500, body: '{"error":"boom"}' };
      if (req.path.startsWith('/gate')) return { status: gateOpen ? 200 : 503 };
      return { status: 200 };
    },
  }));
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

interface Summary {
  id: string;
  endpoint_id: string;
  event_type: string | null;
  status: string;
  created_at: string;
  test: boolean;
}
interface Page {
  events: Summary[];
  total: number;
  limit: number;
  offset: number;
}
interface Replayed {
  id: string;
  status: string;
  source_event_id: string;
}

async function send(
  ws: TestWorkspace,
  targetId: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<string> {
  const r = await stack.ingest<{ id: string }>(`/t/${targetId}`, { key: ws.apiKey, body, headers });
  if (r.status !== 202) throw new Error(`ingest answered ${r.status}: ${r.text}`);
  return r.body.id;
}

const list = (ws: TestWorkspace, query = '') => stack.api<Page>(`/api/v1/events${query}`, { key: ws.apiKey });
const getEvent = (ws: TestWorkspace, id: string) =>
  stack.api<EventView>(`/api/v1/events/${id}`, { key: ws.apiKey });
const replay = (ws: TestWorkspace, id: string) =>
  stack.api<Replayed>(`/api/v1/events/${id}/replay`, { method: 'POST', key: ws.apiKey });

/** The request the receiver got for one event, found by its `webhook-id`. */
const deliveryOf = (id: string): Promise<Received> =>
  pollUntil(`a delivery with webhook-id ${id}`, () =>
    receiver.received.find((r) => r.headers['webhook-id'] === id),
  );

describe('GET /api/v1/events', () => {
  interface Sent {
    id: string;
    endpoint_id: string;
    event_type: string | null;
    correlation_id: string | null;
    status: 'DELIVERED' | 'EXPIRED';
  }
  /** Every event of `ws`, in the order they were accepted. */
  const sent: Sent[] = [];
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const targets: Record<'a' | 'b' | 'dead', string> = { a: '', b: '', dead: '' };
  let otherTarget = '';
  const newestFirst = () => [...sent].reverse().map((s) => s.id);

  beforeAll(async () => {
    ws = await seedWorkspace(stack.db);
    other = await seedWorkspace(stack.db);
    targets.a = (await createWebhookTarget(stack, ws, `${receiver.url}/ok/a`)).id;
    targets.b = (await createWebhookTarget(stack, ws, `${receiver.url}/ok/b`)).id;
    targets.dead = (await createWebhookTarget(stack, ws, REFUSING_URL)).id;
    otherTarget = (await createWebhookTarget(stack, other, `${receiver.url}/ok/other`)).id;
    const types = ['order.created', 'order.paid', 'user.created', null];
    const correlations = ['corr-a', 'corr-b', null];
    // 55 events, one at a time so acceptance order is creation order; more than the default page.
    for (let i = 0; i < 55; i++) {
      const target = i % 9 === 4 ? 'dead' : i % 2 === 0 ? 'a' : 'b';
      const event_type = types[i % 4] ?? null;
      const correlation_id = correlations[i % 3] ?? null;
      const headers: Record<string, string> = {};
      if (event_type) headers['x-event-type'] = event_type;
      if (correlation_id) headers['x-correlation-id'] = correlation_id;
      const id = await send(ws, targets[target], { seq: i }, headers);
      const status = target === 'dead' ? 'EXPIRED' : 'DELIVERED';
      sent.push({ id, endpoint_id: targets[target], event_type, correlation_id, status });
    }
    // Status filters need settled events: wait until the API counts every one where it must end.
    const want = (s: string) => sent.filter((e) => e.status === s).length;
    await pollUntil('every listed event to settle', async () => {
      const [d, x] = await Promise.all([list(ws, '?status=DELIVERED'), list(ws, '?status=EXPIRED')]);
      return d.body.total === want('DELIVERED') && x.body.total === want('EXPIRED') ? true : undefined;
    });
  }, 30_000);

  it('lists newest first; the default page is 50 of the total', async () => {
    const r = await list(ws);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(sent.length);
    expect(r.body.limit).toBe(50);
    expect(r.body.offset).toBe(0);
    expect(r.body.events.map((e) => e.id)).toEqual(newestFirst().slice(0, 50));
    const times = r.body.events.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('limit=100 is allowed and returns everything; offset pages neither overlap nor skip', async () => {
    const all = await list(ws, '?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.limit).toBe(100);
    expect(all.body.events.map((e) => e.id)).toEqual(newestFirst());

    const pages: string[][] = [];
    for (let offset = 0; offset < sent.length; offset += 20) {
      const p = await list(ws, `?limit=20&offset=${offset}`);
      expect([p.status, p.body.total, p.body.limit, p.body.offset]).toEqual([200, sent.length, 20, offset]);
      pages.push(p.body.events.map((e) => e.id));
    }
    expect(pages.map((p) => p.length)).toEqual([20, 20, sent.length - 40]);
    expect(new Set(pages.flat()).size).toBe(sent.length);
    expect(pages.flat()).toEqual(newestFirst());

    const beyond = await list(ws, `?limit=10&offset=${sent.length}`);
    expect([beyond.status, beyond.body.total, beyond.body.events]).toEqual([200, sent.length, []]);
  });

  it('entries carry exactly {id, endpoint_id, event_type, status, created_at, test} with ISO 8601 UTC ms', async () => {
    const r = await list(ws, '?limit=100');
    const byId = new Map(sent.map((s) => [s.id, s]));
    for (const e of r.body.events) {
      expect(Object.keys(e).sort()).toEqual([
        'created_at',
        'endpoint_id',
        'event_type',
        'id',
        'status',
        'test',
      ]);
      expect(e.test).toBe(false);
      expect(e.id).toMatch(ID);
      expect(e.created_at).toMatch(ISO_MS);
      expect(new Date(e.created_at).toISOString()).toBe(e.created_at);
      const s = byId.get(e.id);
      expect(e).toMatchObject({ endpoint_id: s?.endpoint_id, event_type: s?.event_type, status: s?.status });
    }
  });

  it.each([
    ['limit=101'],
    ['limit=0'],
    ['limit=abc'],
    ['limit=-1'],
    ['limit=1.5'],
    ['limit='],
    ['offset=-1'],
    ['offset=abc'],
    ['status=NOPE'],
    ['status=delivered'],
    ['unknown=1'],
    ['limit=10&limit=20'],
  ])('?%s is a 400 naming the problem', async (query) => {
    const r = await list(ws, `?${query}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), code: 'validation_failed' });
  });

  describe('filters, alone and combined, change total to exactly the matching events', () => {
    type Filter = Partial<Record<'endpoint_id' | 'status' | 'event_type' | 'correlation_id', string>>;
    const cases: [string, () => Filter][] = [
      ['endpoint_id', () => ({ endpoint_id: targets.b })],
      ['endpoint_id (the refusing target)', () => ({ endpoint_id: targets.dead })],
      ['status=DELIVERED', () => ({ status: 'DELIVERED' })],
      ['status=EXPIRED', () => ({ status: 'EXPIRED' })],
      ['event_type', () => ({ event_type: 'order.paid' })],
      ['correlation_id', () => ({ correlation_id: 'corr-a' })],
      ['endpoint_id + status', () => ({ endpoint_id: targets.a, status: 'DELIVERED' })],
      ['event_type + correlation_id', () => ({ event_type: 'order.created', correlation_id: 'corr-b' })],
      [
        'all four',
        () => ({
          endpoint_id: targets.a,
          status: 'DELIVERED',
          event_type: 'user.created',
          correlation_id: 'corr-a',
        }),
      ],
      ['a status no event has', () => ({ status: 'RETRYING' })],
      ['an endpoint of another organization', () => ({ endpoint_id: otherTarget })],
      ['an endpoint nobody has', () => ({ endpoint_id: '0'.repeat(32) })],
      ['an event type nobody sent', () => ({ event_type: 'nobody.sent' })],
    ];

    it.each(cases)('%s', async (_name, filter) => {
      const f = filter();
      const expected = newestFirst().filter((id) => {
        const s = sent.find((e) => e.id === id);
        return (Object.keys(f) as (keyof Filter)[]).every((k) => s?.[k] === f[k]);
      });
      const r = await list(ws, `?${new URLSearchParams({ ...f, limit: '100' }).toString()}`);
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(expected.length);
      expect(r.body.total).toBeLessThan(sent.length);
      expect(r.body.events.map((e) => e.id)).toEqual(expected);
    });

    it('the combined filters above are not vacuous', () => {
      // Each combination picks a non-empty, strict subset of what each of its parts picks.
      const count = (f: (s: Sent) => boolean) => sent.filter(f).length;
      const all4 = count(
        (s) =>
          s.endpoint_id === targets.a &&
          s.status === 'DELIVERED' &&
          s.event_type === 'user.created' &&
          s.correlation_id === 'corr-a',
      );
      expect(all4).toBeGreaterThan(0);
      expect(all4).toBeLessThan(count((s) => s.event_type === 'user.created'));
      expect(count((s) => s.event_type === 'order.created' && s.correlation_id === 'corr-b')).toBeGreaterThan(
        0,
      );
    });
  });

  it('another organization never sees these events: list totals 0, GET and replay answer 404', async () => {
    const usage = await usageCount(stack, ws.orgId);
    const events = await eventCount(stack, ws.orgId);
    expect((await list(other)).body).toEqual({
      events: [],
      total: 0,
      limit: 50,
      offset: 0,
      next_cursor: null,
    });
    expect((await list(other, `?endpoint_id=${targets.a}`)).body.total).toBe(0);
    expect((await list(other, '?correlation_id=corr-a')).body.total).toBe(0);
    const victim = sent[0]?.id ?? '';
    const get = await getEvent(other, victim);
    const rep = await replay(other, victim);
    expect([get.status, rep.status]).toEqual([404, 404]);
    expect(get.body).toEqual({ error: expect.any(String), code: 'not_found' });
    expect(rep.body).toEqual({ error: expect.any(String), code: 'not_found' });
    // The answers are the same as for an id nobody has, so existence is not revealed.
    expect((await getEvent(other, '0'.repeat(32))).body).toEqual(get.body);
    expect([await eventCount(stack, ws.orgId), await usageCount(stack, ws.orgId)]).toEqual([events, usage]);
    expect((await getEvent(ws, victim)).status).toBe(200);
  });

  it.each([
    ['too short', 'abc'],
    ['31 hex', '0'.repeat(31)],
    ['33 hex', '0'.repeat(33)],
    ['upper-case hex', 'AB'.repeat(16)],
    ['an attempt id', `da_${'0'.repeat(32)}`],
    ['unknown but well-formed', 'f'.repeat(32)],
  ])('an event id %s answers 404 to GET and replay', async (_name, id) => {
    const get = await getEvent(ws, id);
    const rep = await replay(ws, id);
    expect([get.status, rep.status]).toEqual([404, 404]);
    expect(get.body).toEqual({ error: expect.any(String), code: 'not_found' });
    expect(rep.body).toEqual({ error: expect.any(String), code: 'not_found' });
  });
});

describe('GET /api/v1/events/:id', () => {
  it('returns the payload byte for byte, the attempts with da_ ids, and no source for an original', async () => {
    const ws = await seedWorkspace(stack.db);
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok/detail`);
    const body =
      '{ "zeta" :1,   "alpha":"ünïcödé ✓ 😀","big":1234567890123456789012345,"price":1.50,' +
      '"nested":{"b":[1, 2 ,3],"a":null},"esc":"\\u00e9\\n"  }';
    const id = await send(ws, target.id, body, { 'x-correlation-id': 'detail-1', 'x-event-type': 'x.y' });
    await waitForStatus(stack, ws, id, 'DELIVERED');

    const r = await getEvent(ws, id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    // The raw response holds the archived bytes exactly: not re-serialised, not re-ordered.
    expect(r.text).toContain(`"payload":${body}`);
    expect(Buffer.from(r.text, 'utf8').includes(Buffer.from(body, 'utf8'))).toBe(true);
    expect(r.body.payload).toEqual(JSON.parse(body));
    expect((await deliveryOf(id)).body.equals(Buffer.from(body, 'utf8'))).toBe(true);

    expect(r.body).toMatchObject({
      id,
      endpoint_id: target.id,
      event_type: 'x.y',
      status: 'DELIVERED',
      source_event_id: null,
      correlation_id: 'detail-1',
      org_id: ws.orgId,
    });
    expect(r.body.created_at).toMatch(ISO_MS);
    expect(r.body.delivery_attempts).toHaveLength(1);
    const [attempt] = r.body.delivery_attempts;
    expect(attempt?.id).toMatch(/^da_[0-9a-f]{32}$/);
    expect(attempt?.attempted_at).toMatch(ISO_MS);
    expect(Date.parse(attempt?.attempted_at ?? '')).toBeGreaterThanOrEqual(Date.parse(r.body.created_at));
    expect(attempt).toMatchObject({ attempt_number: 1, status_code: 200, error: null });
  });

  it('a body opening with a UTF-8 byte order mark is delivered as sent and still reads back as valid JSON', async () => {
    const ws = await seedWorkspace(stack.db);
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok/bom`);
    const json = '{"bom" : true,"n":1.50}';
    const sentBytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]);
    const id = await send(ws, target.id, sentBytes);
    expect((await deliveryOf(id)).body.equals(sentBytes)).toBe(true);

    const r = await getEvent(ws, id);
    expect(r.status).toBe(200);
    expect(() => JSON.parse(r.text) as unknown).not.toThrow();
    expect(r.text).toContain(`"payload":${json},`);
    expect(r.body.payload).toEqual({ bom: true, n: 1.5 });
  });
});

describe('POST /api/v1/events/:id/replay', () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await seedWorkspace(stack.db);
  });

  it('a DELIVERED original: a new event is delivered again, no usage, original REPLAYED with its attempts intact; a replay of the replay points at its own source', async () => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok/replay`);
    const body = '{"order": 42,  "total":1.50}';
    const original = await send(ws, target.id, body, { 'x-event-type': 'order.paid' });
    const delivered = await waitForStatus(stack, ws, original, 'DELIVERED');
    const usageBefore = await usageCount(stack, ws.orgId);

    const r = await replay(ws, original);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.stringMatching(ID), status: 'QUEUED', source_event_id: original });
    expect(r.body.id).not.toBe(original);

    const again = await deliveryOf(r.body.id);
    expect(again.path).toBe('/ok/replay');
    expect(again.body.equals(Buffer.from(body))).toBe(true);
    expect(again.headers['x-event-type']).toBe('order.paid');
    expect(receiver.received.filter((x) => x.headers['webhook-id'] === original)).toHaveLength(1);

    const copy = await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
    expect(copy.source_event_id).toBe(original);
    expect(copy.delivery_attempts).toHaveLength(1);
    const after = await getEvent(ws, original);
    expect(after.body.status).toBe('REPLAYED');
    expect(after.body.delivery_attempts).toEqual(delivered.delivery_attempts);
    expect(after.body.source_event_id).toBeNull();

    // A replay of the replay names the replay as its source, not the first original.
    const second = await replay(ws, r.body.id);
    expect(second.status).toBe(200);
    expect(second.body.source_event_id).toBe(r.body.id);
    expect((await deliveryOf(second.body.id)).body.equals(Buffer.from(body))).toBe(true);
    const secondView = await waitForStatus(stack, ws, second.body.id, 'DELIVERED');
    expect(secondView.source_event_id).toBe(r.body.id);
    expect((await getEvent(ws, r.body.id)).body.status).toBe('REPLAYED');

    // Three events, three deliveries, one usage record: replays are not billable.
    expect(await usageCount(stack, ws.orgId)).toBe(usageBefore);
    const usageOfReplays = await stack.db
      .selectFrom('usage_records')
      .select('id')
      .where('item_id', 'in', [r.body.id, second.body.id])
      .execute();
    expect(usageOfReplays).toHaveLength(0);
  });

  it('an EXPIRED original becomes REPLAYED; the replay walks the pipeline on its own attempts', async () => {
    const target = await createWebhookTarget(stack, ws, REFUSING_URL);
    const original = await send(ws, target.id, { n: 1 });
    const expired = await waitForStatus(stack, ws, original, 'EXPIRED');
    expect(expired.delivery_attempts).toHaveLength(6);
    const usageBefore = await usageCount(stack, ws.orgId);

    const r = await replay(ws, original);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.stringMatching(ID), status: 'QUEUED', source_event_id: original });
    const copy = await waitForStatus(stack, ws, r.body.id, 'EXPIRED');
    expect(copy.delivery_attempts).toHaveLength(6);
    expect(copy.source_event_id).toBe(original);

    const after = await getEvent(ws, original);
    expect(after.body.status).toBe('REPLAYED');
    expect(after.body.delivery_attempts).toEqual(expired.delivery_attempts);
    expect(await usageCount(stack, ws.orgId)).toBe(usageBefore);
  });

  it('a FAILED original (its target was disabled mid-retry, then enabled again) becomes REPLAYED', async () => {
    gateOpen = false;
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/gate/failed`);
    const original = await send(ws, target.id, { n: 2 });
    await waitForStatus(stack, ws, original, 'RETRYING');
    const patch = (enabled: boolean) =>
      stack.api(`/api/v1/targets/${target.id}`, { method: 'PATCH', key: ws.apiKey, body: { enabled } });
    expect((await patch(false)).status).toBe(200);
    const failed = await waitForStatus(stack, ws, original, 'FAILED');
    expect(failed.final_reason).toBe('target disabled');
    expect((await patch(true)).status).toBe(200);
    gateOpen = true;

    const r = await replay(ws, original);
    expect(r.status).toBe(200);
    expect((await deliveryOf(r.body.id)).path).toBe('/gate/failed');
    const after = await getEvent(ws, original);
    expect(after.body.status).toBe('REPLAYED');
    expect(after.body.delivery_attempts).toEqual(failed.delivery_attempts);
  });

  it('an original still in flight (RETRYING) keeps its state and goes on to settle by itself', async () => {
    gateOpen = false;
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/gate`);
    const original = await send(ws, target.id, { gated: true });
    await waitForStatus(stack, ws, original, 'RETRYING');

    const r = await replay(ws, original);
    expect(r.status).toBe(200);
    expect(r.body.source_event_id).toBe(original);
    expect((await getEvent(ws, original)).body.status).toBe('RETRYING');

    gateOpen = true;
    // Had the replay marked it REPLAYED, no attempt could move it any more.
    const settled = await waitForStatus(stack, ws, original, 'DELIVERED');
    expect(settled.delivery_attempts.at(-1)?.status_code).toBe(200);
    const copy = await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
    expect(copy.source_event_id).toBe(original);
    expect((await deliveryOf(r.body.id)).path).toBe('/gate');
  });

  it.each([
    [
      'disabled',
      (id: string) =>
        stack.api(`/api/v1/targets/${id}`, { method: 'PATCH', key: ws.apiKey, body: { enabled: false } }),
    ],
    ['deleted', (id: string) => stack.api(`/api/v1/targets/${id}`, { method: 'DELETE', key: ws.apiKey })],
  ])('a %s target: 409, nothing written, the original untouched', async (_name, change) => {
    const target = await createWebhookTarget(stack, ws, `${receiver.url}/ok/gone`);
    const original = await send(ws, target.id, { n: 1 });
    const before = await waitForStatus(stack, ws, original, 'DELIVERED');
    expect((await change(target.id)).status).toBe(200);
    const events = await eventCount(stack, ws.orgId);

    const r = await replay(ws, original);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    expect(await eventCount(stack, ws.orgId)).toBe(events);
    const after = await getEvent(ws, original);
    expect(after.body.status).toBe('DELIVERED');
    expect(after.body.delivery_attempts).toEqual(before.delivery_attempts);
  });
});

describe('GET /api/v1/stats', () => {
  interface Stats {
    window: string;
    since: number;
    events: { total: number; by_status: Record<string, number> };
    attempts: { total: number; succeeded: number; failed: number };
    success_rate: number | null;
    latency_ms: { p50: number | null; p95: number | null; p99: number | null };
  }
  const stats = (ws: TestWorkspace, query = '') =>
    stack.api<Stats>(`/api/v1/stats${query}`, { key: ws.apiKey });

  /** Postgres' percentile_cont: linear interpolation between the closest ranks. */
  const percentile = (sorted: number[], p: number): number => {
    const pos = p * (sorted.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return (sorted[lo] ?? 0) + ((sorted[hi] ?? 0) - (sorted[lo] ?? 0)) * (pos - lo);
  };

  let ws: TestWorkspace;
  const delivered: EventView[] = [];
  const expired: EventView[] = [];

  beforeAll(async () => {
    ws = await seedWorkspace(stack.db);
    const ok = await createWebhookTarget(stack, ws, `${receiver.url}/ok/stats`);
    const fail = await createWebhookTarget(stack, ws, `${receiver.url}/fail/stats`);
    const okIds = [];
    const failIds = [];
    for (let i = 0; i < 3; i++) okIds.push(await send(ws, ok.id, { i }));
    for (let i = 0; i < 2; i++) failIds.push(await send(ws, fail.id, { i }));
    for (const id of okIds) delivered.push(await waitForStatus(stack, ws, id, 'DELIVERED'));
    for (const id of failIds) expired.push(await waitForStatus(stack, ws, id, 'EXPIRED'));
  }, 30_000);

  /** The window starts on the quarter hour at or before now - window (the counters' grain). */
  const expectWindowStart = (since: number, windowSeconds: number) => {
    const asked = Math.floor(Date.now() / 1000) - windowSeconds;
    expect(since % 900).toBe(0);
    expect(asked - since).toBeGreaterThanOrEqual(-5);
    expect(asked - since).toBeLessThan(900 + 5);
  };
  const expectShape = (s: Stats) => {
    // The delivery figures the spec's stats carry; other sections (e.g. mailboxes) may sit beside them.
    expect(Object.keys(s)).toEqual(
      expect.arrayContaining(['window', 'since', 'events', 'attempts', 'success_rate', 'latency_ms']),
    );
    expect(Object.keys(s.events).sort()).toEqual(['by_status', 'total']);
    expect(Object.keys(s.events.by_status).sort()).toEqual([...STATUSES].sort());
    expect(Object.keys(s.attempts).sort()).toEqual(['failed', 'succeeded', 'total']);
    expect(Object.keys(s.latency_ms).sort()).toEqual(['p50', 'p95', 'p99']);
  };

  it('counts exactly the events and attempts this organization caused (default window 24h)', async () => {
    const events = [...delivered, ...expired];
    const attempts = events.flatMap((e) => e.delivery_attempts);
    const succeeded = attempts.filter((a) => a.status_code === 200).length;
    const durations = attempts.map((a) => a.duration_ms).sort((x, y) => x - y);

    const r = await stats(ws);
    expect(r.status).toBe(200);
    expectShape(r.body);
    expect(r.body.window).toBe('24h');
    expectWindowStart(r.body.since, 86400);
    expect(r.body.events).toEqual({
      total: events.length,
      by_status: {
        QUEUED: 0,
        DELIVERED: delivered.length,
        FAILED: 0,
        RETRYING: 0,
        EXPIRED: expired.length,
        REPLAYED: 0,
      },
    });
    expect(attempts).toHaveLength(delivered.length + 6 * expired.length);
    expect(r.body.attempts).toEqual({
      total: attempts.length,
      succeeded,
      failed: attempts.length - succeeded,
    });
    expect(r.body.success_rate).toBeCloseTo(succeeded / attempts.length, 10);
    // From the counters' histogram: within its resolution (LATENCY_RESOLUTION of exact + 1 ms), rounded.
    for (const [p, q] of [
      ['p50', 0.5],
      ['p95', 0.95],
      ['p99', 0.99],
    ] as const) {
      const want = percentile(durations, q);
      expect(Math.abs((r.body.latency_ms[p] ?? NaN) - want)).toBeLessThanOrEqual(
        LATENCY_RESOLUTION * (want + 1) + 0.5,
      );
    }
  });

  it('?window=1h leaves out what happened before it; 7d and 30d include it', async () => {
    // Backdating one delivered event and its attempt by two hours in Postgres is the only way to
    // have something older than the window without waiting an hour.
    const old = delivered[0];
    if (!old) throw new Error('no delivered event');
    await sql`update events set created_at = created_at - interval '2 hours' where id = ${old.id}`.execute(
      stack.db,
    );
    await sql`update delivery_attempts set attempted_at = attempted_at - interval '2 hours' where event_id = ${old.id}`.execute(
      stack.db,
    );
    const total = delivered.length + expired.length;
    const attempts = delivered.length + 6 * expired.length;

    const hour = await stats(ws, '?window=1h');
    expect(hour.status).toBe(200);
    expectShape(hour.body);
    expect(hour.body.window).toBe('1h');
    expectWindowStart(hour.body.since, 3600);
    expect(hour.body.events.total).toBe(total - 1);
    expect(hour.body.events.by_status.DELIVERED).toBe(delivered.length - 1);
    expect(hour.body.attempts).toEqual({
      total: attempts - 1,
      succeeded: delivered.length - 1,
      failed: 6 * expired.length,
    });

    for (const window of ['24h', '7d', '30d']) {
      const r = await stats(ws, `?window=${window}`);
      expect([r.status, r.body.window, r.body.events.total, r.body.attempts.total]).toEqual([
        200,
        window,
        total,
        attempts,
      ]);
    }
  });

  it.each([['window=2h'], ['window='], ['window=1H'], ['unknown=1']])('?%s is a 400', async (query) => {
    const r = await stats(ws, `?${query}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), code: 'validation_failed' });
  });

  it('another organization sees zeros and no rates', async () => {
    const other = await seedWorkspace(stack.db);
    const r = await stats(other);
    expect(r.status).toBe(200);
    expectShape(r.body);
    expect(r.body.events).toEqual({ total: 0, by_status: Object.fromEntries(STATUSES.map((s) => [s, 0])) });
    expect(r.body.attempts).toEqual({ total: 0, succeeded: 0, failed: 0 });
    expect(r.body.success_rate).toBeNull();
    expect(r.body.latency_ms).toEqual({ p50: null, p95: null, p99: null });
  });
});
