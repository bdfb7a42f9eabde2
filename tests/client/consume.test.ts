// Proves the client's consumeMailbox against the real stack with a 3-second lease: two consumers with
// different API keys and a third running as its own `node` process, SIGKILLed while it handles a
// message, drain 1,000 messages; every message ends ACKNOWLEDGED exactly once, by a live key, no two
// consumers' handlers ever run on one message at the same time, the dead consumer's message is handled
// again only after its lease lapsed, and both live consumers did work. Then, one behaviour each: a
// handler that throws leaves its message unacknowledged (UNREAD once the lease passes) while the loop
// goes on; a handler slower than the lease keeps it by heartbeats (another key is refused meanwhile)
// and is acked once; a consumer whose heartbeat is held back past the lease loses the message (its
// signal aborts, no ack) to another key; answers dropped on the wire (claims and acks done, replies
// lost) do not stop the loop nor lose a message; abort stops claiming, lets handlers in flight finish
// and resolves the summary.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ConsumeEvent, EvdsClient, MailboxMessage } from '@evds/client';
import { startClientKit, startDroppingProxy, type ClientKit } from './kit.ts';
import {
  fill,
  newMailbox,
  overlaps,
  sleep,
  spawnConsumer,
  type ChildConsumer,
  type Interval,
} from './consume-kit.ts';

const LEASE_SECONDS = 3;
const MESSAGES = 1000;

let kit: ClientKit;
let client: EvdsClient;
/** The consumer process SIGKILLed mid-message; killed here too should the suite fail before. */
let dead: ChildConsumer | undefined;

beforeAll(async () => {
  kit = await startClientKit({
    MAILBOX_LEASE_SECONDS: String(LEASE_SECONDS),
    API_RATE_LIMIT: '100000',
    INGEST_RATE_LIMIT: '100000',
  });
  client = kit.client;
});
afterAll(async () => {
  dead?.child.kill('SIGKILL');
  await kit.stop();
});

/** A client with a fresh API key of the workspace, made through the client. */
async function withNewKey(name: string): Promise<{ client: EvdsClient; keyId: string; key: string }> {
  const created = await client.keys.create(name);
  return { client: kit.clientWith({ apiKey: created.key }), keyId: created.id, key: created.key };
}

/** Every loop ends, also when a broken consumer would poll forever (a failing test must not hang). */
const bounded = () => AbortSignal.timeout(15_000);

const urlOf = (input: string | URL | Request) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

const state = async (id: string) => (await client.mailboxes.get(id)).message;

describe('two consumers and one that dies mid-message', () => {
  it(`drain ${MESSAGES} messages, each acknowledged exactly once`, async () => {
    const mailbox = await newMailbox(client, 'drain');
    const filledAt = Date.now();
    const ids = await fill(client, mailbox, MESSAGES);
    const sentMs = Date.now() - filledAt;
    const second = await withNewKey('consumer-b');
    const doomed = await withNewKey('consumer-dies');

    // The dying consumer goes first so it holds the oldest message, heartbeating, when the others start.
    dead = spawnConsumer({ url: kit.stack.processes.get('api')!.url, apiKey: doomed.key, mailbox });
    const taken = await dead.handling;

    const intervals: Interval[] = [];
    const acked = new Map<string, string[]>();
    const done = new AbortController();
    const deadline = setTimeout(() => done.abort(), 45_000);
    const run = (name: string, c: EvdsClient) =>
      c.consumeMailbox(
        mailbox,
        async (m) => {
          const start = Date.now();
          await sleep(2 + Math.random() * 8);
          intervals.push({ consumer: name, id: m.id, start, end: Date.now() });
        },
        {
          concurrency: 8,
          pollIntervalMs: 100,
          signal: done.signal,
          onEvent: (e: ConsumeEvent) => {
            if (e.type !== 'acked') return;
            acked.set(e.messageId, [...(acked.get(e.messageId) ?? []), name]);
            if (acked.size === MESSAGES) done.abort();
          },
        },
      );
    const drainedFrom = Date.now();
    const consumers = Promise.all([run('a', client), run('b', second.client)]);
    // Killed after a heartbeat or two: until then its lease kept the message from the live consumers.
    await sleep(1500);
    const killedAt = await dead.kill();
    const [a, b] = await consumers;
    clearTimeout(deadline);
    console.log(
      `${MESSAGES} sent in ${sentMs} ms; drained in ${Date.now() - drainedFrom} ms: ` +
        `a ${JSON.stringify(a)}, b ${JSON.stringify(b)}`,
    );
    intervals.push({ consumer: 'dead', id: taken.id, start: taken.at, end: killedAt });

    expect(a.acked + b.acked).toBe(MESSAGES);
    expect(a.failed + b.failed).toBe(0);
    expect(a.acked).toBeGreaterThan(50);
    expect(b.acked).toBeGreaterThan(50);
    expect(acked.size).toBe(MESSAGES);
    expect([...acked.values()].filter((who) => who.length !== 1)).toEqual([]);
    expect(overlaps(intervals)).toEqual([]);

    const rows = await kit.stack.db
      .selectFrom('mailbox_messages')
      .select(['id', 'state', 'claimed_by_key_id', 'acknowledged_at'])
      .where('mailbox_id', '=', mailbox)
      .execute();
    expect(rows).toHaveLength(MESSAGES);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(ids));
    expect(rows.filter((r) => r.state !== 'ACKNOWLEDGED' || r.acknowledged_at === null)).toEqual([]);
    const keys = new Set(rows.map((r) => r.claimed_by_key_id));
    expect(keys).toEqual(new Set([kit.ws.keyId, second.keyId]));

    // The dead consumer's message: handled by a live one, only once its lease had lapsed after the kill.
    const redone = intervals.filter((i) => i.id === taken.id && i.consumer !== 'dead');
    expect(redone).toHaveLength(1);
    expect(redone[0]!.start).toBeGreaterThanOrEqual(killedAt + 1000);
    expect(rows.find((r) => r.id === taken.id)?.claimed_by_key_id).not.toBe(doomed.keyId);
  }, 60_000);
});

describe('one behaviour at a time', () => {
  it('a handler that throws leaves the message unacknowledged, UNREAD after the lease; the loop goes on', async () => {
    const mailbox = await newMailbox(client, 'throws');
    const [bad, good] = await fill(client, mailbox, 2, 1);
    const events: ConsumeEvent[] = [];
    const summary = await client.consumeMailbox(
      mailbox,
      (m) => (m.id === bad ? Promise.reject(new Error('handler broke')) : Promise.resolve()),
      { max: 2, signal: bounded(), onEvent: (e) => events.push(e) },
    );
    expect(summary).toEqual({ acked: 1, failed: 1, lost: 0 });
    expect(events.find((e) => e.type === 'failed')).toMatchObject({ messageId: bad });
    expect((await state(good!)).state).toBe('ACKNOWLEDGED');
    expect(await state(bad!)).toMatchObject({ state: 'CLAIMED', acknowledged_at: null });
    await sleep((LEASE_SECONDS + 1) * 1000);
    expect(await state(bad!)).toMatchObject({ state: 'UNREAD', acknowledged_at: null });

    // Offered again: the next run takes it.
    const seen: string[] = [];
    const again = await client.consumeMailbox(
      mailbox,
      (m) => {
        seen.push(m.id);
        return Promise.resolve();
      },
      { max: 1, signal: bounded() },
    );
    expect(again).toEqual({ acked: 1, failed: 0, lost: 0 });
    expect(seen).toEqual([bad]);
  });

  it('a handler slower than the lease keeps it by heartbeats and is acked once', async () => {
    const mailbox = await newMailbox(client, 'slow');
    const [id] = await fill(client, mailbox, 1, 1);
    const other = await withNewKey('other');
    const refusals: string[] = [];
    const summary = await client.consumeMailbox(
      mailbox,
      async (m) => {
        // Past the first lease, and past a second: only the heartbeats keep it.
        for (const at of [1500, 2000, 2500]) {
          await sleep(at);
          refusals.push(
            await other.client.mailboxes.claim(m.id).then(
              () => 'claimed',
              (e: Error) => e.message,
            ),
          );
        }
      },
      { max: 1, signal: bounded() },
    );
    expect(summary).toEqual({ acked: 1, failed: 0, lost: 0 });
    expect(refusals).toEqual(Array(3).fill(expect.stringContaining('lease_held')));
    expect(await state(id!)).toMatchObject({ state: 'ACKNOWLEDGED', claimed_by_key_id: kit.ws.keyId });
  });

  it('a consumer whose heartbeat comes after the lease loses the message: its signal aborts, no ack', async () => {
    const mailbox = await newMailbox(client, 'lost');
    const [id] = await fill(client, mailbox, 1, 1);
    const other = await withNewKey('thief');
    // The slow consumer's heartbeats reach the API only after its lease has passed.
    let holdClaims = false;
    const slow = kit.clientWith({
      fetch: async (input, init) => {
        if (holdClaims && urlOf(input).endsWith('/claim')) await sleep((LEASE_SECONDS + 1) * 1000);
        return fetch(input, init);
      },
    });
    let aborted: unknown;
    const events: ConsumeEvent[] = [];
    // `max` counts handled messages only, so after the loss the loop would go on: stopped here.
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 15_000).unref();
    const slowRun = slow.consumeMailbox(
      mailbox,
      async (_m: MailboxMessage, { signal }) => {
        holdClaims = true;
        await Promise.race([
          new Promise((resolve) => signal.addEventListener('abort', resolve)),
          new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
        ]);
        aborted = signal.reason;
      },
      {
        max: 1,
        signal: stop.signal,
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'lease_lost') stop.abort();
        },
      },
    );
    // Once the lease lapsed, the other key takes the message and acks it.
    await sleep((LEASE_SECONDS + 0.5) * 1000);
    await other.client.mailboxes.claim(id!);
    await other.client.mailboxes.ack(id!);
    const summary = await slowRun;
    expect(summary).toEqual({ acked: 0, failed: 0, lost: 1 });
    expect(aborted).toMatchObject({ status: 409, code: 'conflict' });
    expect(events.map((e) => e.type)).toEqual(['claimed', 'lease_lost']);
    expect(await state(id!)).toMatchObject({ state: 'ACKNOWLEDGED', claimed_by_key_id: other.keyId });
  }, 20_000);

  it('answers dropped on the wire stop neither the loop nor a message', async () => {
    const mailbox = await newMailbox(client, 'dropped');
    const ids = await fill(client, mailbox, 10, 4);
    const proxy = await startDroppingProxy(kit.stack.processes.get('api')!.url, 6);
    try {
      const viaProxy = kit.clientWith({ baseUrl: proxy.url });
      const summary = await viaProxy.consumeMailbox(mailbox, async () => {}, {
        max: 10,
        signal: bounded(),
        pollIntervalMs: 100,
      });
      expect(summary).toEqual({ acked: 10, failed: 0, lost: 0 });
      expect(proxy.dropped).toBe(6);
    } finally {
      await proxy.close();
    }
    for (const id of ids) expect((await state(id)).state).toBe('ACKNOWLEDGED');
  });

  it('abort stops claiming, lets handlers in flight finish and resolves the summary', async () => {
    const mailbox = await newMailbox(client, 'abort');
    await fill(client, mailbox, 20, 4);
    const stop = new AbortController();
    const claimed: string[] = [];
    // Counted as the requests leave: a claim sent just before the abort may be answered after it (and
    // is then handled and acked like any other).
    let claimsSent = 0;
    let claimsSentAfterAbort = 0;
    const watched = kit.clientWith({
      fetch: (input, init) => {
        if (urlOf(input).endsWith('/claim')) {
          claimsSent++;
          if (stop.signal.aborted) claimsSentAfterAbort++;
        }
        return fetch(input, init);
      },
    });
    const finished: string[] = [];
    const run = watched.consumeMailbox(
      mailbox,
      async (m) => {
        await sleep(400);
        finished.push(m.id);
      },
      {
        concurrency: 3,
        signal: stop.signal,
        onEvent: (e) => {
          if (e.type === 'claimed') claimed.push(e.messageId);
        },
      },
    );
    await sleep(600);
    stop.abort();
    const abortedAt = Date.now();
    const summary = await run;
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(claimsSent).toBeGreaterThanOrEqual(claimed.length);
    expect(claimsSentAfterAbort).toBe(0);
    expect(summary).toEqual({ acked: claimed.length, failed: 0, lost: 0 });
    expect(finished.sort()).toEqual([...claimed].sort());
    expect(claimed.length).toBeGreaterThanOrEqual(3);
    expect(claimed.length).toBeLessThan(20);
    const page = await client.mailboxes.list(mailbox, { status: 'UNREAD', limit: '100' });
    expect(page.messages).toHaveLength(20 - claimed.length);
  });
});
