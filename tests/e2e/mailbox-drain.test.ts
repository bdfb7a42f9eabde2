// Proves that a mailbox is a safe work queue under concurrency, with api and ingest as their own
// processes: 2,000 messages accepted over /t/ are drained by 10 consumers, each with its own API key,
// running list + claim + ack at the same time on the same messages; every message ends ACKNOWLEDGED,
// acknowledged exactly once (no 200 ack twice, by anyone), none is left UNREAD or CLAIMED, the losing
// claims were 409, and the whole drain wrote no usage record beyond the 2,000 of ingestion. It prints
// the claims + acks per second it observed.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { usageCount } from './helpers.ts';

const MESSAGES = 2000;
const CONSUMERS = 10;

let stack: Stack;
let ws: TestWorkspace;
let mailbox: string;

beforeAll(async () => {
  stack = await startStack({
    services: ['api', 'ingest'],
    env: { INGEST_RATE_LIMIT: String(MESSAGES * 2), API_KEYS_PER_ORG: String(CONSUMERS + 1) },
  });
  ws = await seedWorkspace(stack.db);
  const r = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'work' },
  });
  mailbox = r.body.target.id;
}, 60_000);
afterAll(() => stack.stop());

interface Page {
  messages: { id: string; payload: { n: number } }[];
  next_cursor: string | null;
}

/** Runs `fn` over `items` with at most `width` in flight. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}

it(`${CONSUMERS} consumers drain ${MESSAGES} messages: each acknowledged exactly once, none left`, async () => {
  const accepted: string[] = [];
  await pool(
    Array.from({ length: MESSAGES }, (_, n) => n),
    25,
    async (n) => {
      const r = await stack.ingest<{ id: string; status: string }>(`/t/${mailbox}`, {
        key: ws.apiKey,
        body: `{"n": ${n}}`,
      });
      if (r.status !== 202 || r.body.status !== 'UNREAD') throw new Error(`ingest ${r.status}: ${r.text}`);
      accepted.push(r.body.id);
    },
  );
  expect(new Set(accepted).size).toBe(MESSAGES);
  const usageBefore = await usageCount(stack, ws.orgId);

  const keys: string[] = [];
  for (let i = 0; i < CONSUMERS; i++) {
    const r = await stack.api<{ key: string }>('/api/v1/keys', { key: ws.apiKey, body: { name: `c${i}` } });
    expect(r.status).toBe(201);
    keys.push(r.body.key);
  }

  const acked = new Map<string, number>();
  const tally = { claims: 0, acks: 0, conflicts: 0, lists: 0, unexpected: [] as string[] };
  const consume = async (key: string) => {
    for (;;) {
      const page = await stack.api<Page>(`/api/v1/mailboxes/${mailbox}/messages?status=UNREAD&limit=100`, {
        key,
      });
      tally.lists++;
      if (page.status !== 200) throw new Error(`list ${page.status}: ${page.text}`);
      if (page.body.messages.length === 0) return;
      // Uncoordinated consumers: a random order, and a fresh page once this one looks taken.
      let misses = 0;
      for (const m of shuffle(page.body.messages)) {
        const c = await stack.api(`/api/v1/mailbox-messages/${m.id}/claim`, { method: 'POST', key });
        if (c.status === 409) {
          tally.conflicts++;
          if (++misses === 3) break;
          continue;
        }
        misses = 0;
        if (c.status !== 200) tally.unexpected.push(`claim ${c.status} ${c.text}`);
        tally.claims++;
        const a = await stack.api(`/api/v1/mailbox-messages/${m.id}/ack`, { method: 'POST', key });
        if (a.status !== 200) tally.unexpected.push(`ack ${a.status} ${a.text}`);
        tally.acks++;
        acked.set(m.id, (acked.get(m.id) ?? 0) + 1);
      }
    }
  };
  const started = performance.now();
  await Promise.all(keys.map(consume));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `mailbox drain: ${MESSAGES} messages, ${CONSUMERS} consumers: ${tally.claims} claims + ${tally.acks} acks ` +
      `in ${seconds.toFixed(2)} s = ${Math.round((tally.claims + tally.acks) / seconds)} claims+acks/s ` +
      `(${tally.conflicts} claim conflicts answered 409, ${tally.lists} list calls; ` +
      `${Math.round((tally.claims + tally.acks + tally.conflicts + tally.lists) / seconds)} requests/s in all)`,
  );

  expect(tally.unexpected).toEqual([]);
  expect(tally.claims).toBe(MESSAGES);
  expect(tally.acks).toBe(MESSAGES);
  expect([...acked.values()].every((n) => n === 1)).toBe(true);
  expect([...acked.keys()].sort()).toEqual([...accepted].sort());

  const rows = await stack.db
    .selectFrom('mailbox_messages')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('mailbox_id', '=', mailbox)
    .groupBy('state')
    .execute();
  expect(rows).toEqual([{ state: 'ACKNOWLEDGED', n: MESSAGES }]);
  for (const status of ['UNREAD', 'CLAIMED']) {
    const left = await stack.api<Page>(`/api/v1/mailboxes/${mailbox}/messages?status=${status}`, {
      key: ws.apiKey,
    });
    expect(left.body).toEqual({ messages: [], next_cursor: null });
  }
  expect(await usageCount(stack, ws.orgId)).toBe(usageBefore);
}, 120_000);
