// Proves the byte budget of a mailbox page (MAILBOX_PAGE_MAX_BYTES, here 500 kB) over real HTTP: ten
// messages of about 200 kB come in pages of two (never more payload bytes than the budget), with
// `next_cursor` set whenever messages remain, and following it yields all ten exactly once, oldest
// first, payloads byte for byte; a message larger than the whole budget still comes, alone, so a
// consumer always makes progress; the budget holds with a state filter too; and a message past
// retention (no payload shown) takes none of the budget.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { insertItem } from '@evds/db';
import { newId } from '@evds/domain';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

const BUDGET = 500_000;

let api: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi({ MAILBOX_PAGE_MAX_BYTES: String(BUDGET) });
  ws = await seedWorkspace(api.database.db);
});
afterAll(() => api.stop());

async function createMailbox(): Promise<string> {
  const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'box' },
  });
  return r.body.target.id;
}

/** A JSON payload of exactly `bytes` bytes, tagged with `n`. */
const payloadOf = (n: number, bytes: number): string => {
  const head = `{"n":${n},"pad":"`;
  return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
};

/** Stores messages straight in Postgres (ingestion would refuse one over max_payload_bytes). */
async function put(mailbox: string, sizes: number[]): Promise<{ id: string; payload: string }[]> {
  const stored = [];
  for (const [n, bytes] of sizes.entries()) {
    const id = newId();
    const payload = payloadOf(n, bytes);
    await insertItem(api.database.db, {
      id,
      orgId: ws.orgId,
      targetId: mailbox,
      kind: 'mailbox',
      eventType: null,
      correlationId: null,
      payload: Buffer.from(payload),
      requestId: null,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    stored.push({ id, payload });
  }
  return stored;
}

type Page = {
  messages: { id: string; payload: unknown; payload_size: number }[];
  next_cursor: string | null;
};

/** Follows `next_cursor` to the end; returns each page's messages with their raw answer size. */
async function walk(mailbox: string, query = 'limit=100') {
  const pages: { messages: Page['messages']; bytes: number }[] = [];
  let after: string | null = null;
  do {
    const r: { status: number; body: Page; text: string } = await api.request<Page>(
      `/api/v1/mailboxes/${mailbox}/messages?${query}${after ? `&after=${after}` : ''}`,
      { key: ws.apiKey },
    );
    expect(r.status).toBe(200);
    pages.push({ messages: r.body.messages, bytes: Buffer.byteLength(r.text) });
    if (r.body.next_cursor !== null) expect(r.body.next_cursor).toBe(r.body.messages.at(-1)?.id);
    after = r.body.next_cursor;
    expect(pages.length).toBeLessThan(100);
  } while (after);
  return pages;
}

describe('mailbox page byte budget', () => {
  it('ten messages of 200 kB come two per page; the cursor yields all ten once, in order, intact', async () => {
    const mailbox = await createMailbox();
    const stored = await put(mailbox, Array<number>(10).fill(200_000));
    const pages = await walk(mailbox);
    expect(pages.map((p) => p.messages.length)).toEqual([2, 2, 2, 2, 2]);
    const seen = pages.flatMap((p) => p.messages);
    expect(seen.map((m) => m.id)).toEqual(stored.map((s) => s.id));
    seen.forEach((m, i) => expect(JSON.stringify(m.payload)).toBe(stored[i]?.payload));
    for (const p of pages) {
      const payloadBytes = p.messages.reduce((sum, m) => sum + m.payload_size, 0);
      expect(payloadBytes).toBeLessThanOrEqual(BUDGET);
      // The answer is the payloads plus a few hundred bytes of record per message.
      expect(p.bytes).toBeLessThan(BUDGET + 2_000);
    }
  });

  it('a message larger than the whole budget still comes, alone, and the pages go on', async () => {
    const mailbox = await createMailbox();
    const stored = await put(mailbox, [100_000, 600_000, 100_000, 100_000]);
    const pages = await walk(mailbox);
    expect(pages.map((p) => p.messages.map((m) => m.payload_size))).toEqual([
      [100_000],
      [600_000],
      [100_000, 100_000],
    ]);
    expect(pages.flatMap((p) => p.messages.map((m) => m.id))).toEqual(stored.map((s) => s.id));
  });

  it('holds with a state filter', async () => {
    const mailbox = await createMailbox();
    const stored = await put(mailbox, Array<number>(5).fill(200_000));
    const pages = await walk(mailbox, 'status=UNREAD&limit=50');
    expect(pages.map((p) => p.messages.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.messages.map((m) => m.id))).toEqual(stored.map((s) => s.id));
  });

  it('a message past retention shows no payload and takes none of the budget', async () => {
    const mailbox = await createMailbox();
    const stored = await put(mailbox, [300_000, 300_000, 150_000, 100_000]);
    await sql`update mailbox_messages set expires_at = now() - interval '1 second' where id = ${stored[0]?.id}`.execute(
      api.database.db,
    );
    const pages = await walk(mailbox);
    // 0 + 300 kB + 150 kB fit; 100 kB more would pass 500 kB.
    const ids = stored.map((s) => s.id);
    expect(pages.map((p) => p.messages.map((m) => m.id))).toEqual([ids.slice(0, 3), ids.slice(3)]);
    expect(pages[0]?.messages[0]?.payload).toBeNull();
  });
});
