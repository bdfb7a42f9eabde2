// Proves the partition maintenance (repos/partitions.ts, run by the worker's retention task): weeks are
// made ahead of time on all three tables and once only; rows land in the week they belong to; whole
// weeks past retention are dropped with their counter rows while inserts go on, none of them failing
// or waiting on a lock (the longest insert is printed), and the worker's maintenance does both.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dropExpiredPartitions, ensurePartitions, listPartitions, weekStart } from '@evds/db';
import { keepPartitions } from '@evds/delivery';
import { createTestDatabase, seedWorkspace, type TestDatabase, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { seedEvents } from './event-store-kit.ts';

const WEEK = 7 * 86400_000;
let database: TestDatabase;
let ws: TestWorkspace;
let target: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ws = await seedWorkspace(database.db);
  target = 'a'.repeat(32);
  await sql`insert into targets (id, org_id, kind, name, url) values (${target}, ${ws.orgId}, 'webhook', 't', 'https://127.0.0.1:9/')`.execute(
    database.db,
  );
});
afterAll(() => database.drop());

const namesOf = async () => (await listPartitions(database.db)).map((p) => p.name);

describe('partition maintenance', () => {
  it('makes missing weeks of the three tables once, each starting on a Monday 00:00 UTC', async () => {
    const from = new Date(Date.now() + 20 * WEEK);
    const made = await ensurePartitions(database.db, from, new Date(from.getTime() + 2 * WEEK));
    expect(made).toHaveLength(9);
    expect(new Set(made.map((n) => n.split('_p')[0]))).toEqual(
      new Set(['events', 'delivery_attempts', 'usage_records']),
    );
    for (const p of (await listPartitions(database.db)).filter((x) => made.includes(x.name))) {
      expect(p.from.getTime()).toBe(weekStart(p.from).getTime());
      expect(p.to.getTime() - p.from.getTime()).toBe(WEEK);
    }
    expect(await ensurePartitions(database.db, from, new Date(from.getTime() + 2 * WEEK))).toEqual([]);
    // A row in that future week lands in its own partition.
    const at = new Date(from.getTime() + WEEK);
    await sql`insert into usage_records (org_id, item_id, item_kind, created_at) values (${ws.orgId}, 'x', 'webhook', ${at})`.execute(
      database.db,
    );
    const where = await sql<{
      t: string;
    }>`select tableoid::regclass::text as t from usage_records where item_id = 'x'`.execute(database.db);
    expect(where.rows[0]?.t).toBe(
      `usage_records_p${weekStart(at).toISOString().slice(0, 10).replaceAll('-', '')}`,
    );
  });

  it('drops whole weeks past retention while inserts go on, none failing', async () => {
    const db = database.db;
    const old = new Date(Date.now() - 40 * WEEK);
    await ensurePartitions(db, old, new Date(old.getTime() + 3 * WEEK));
    await seedEvents(db, {
      orgId: ws.orgId,
      targets: [target],
      n: 3000,
      spanSeconds: 14 * 86400,
      agoSeconds: 38 * 7 * 86400,
    });
    const before = await namesOf();
    let stop = false;
    const latencies: number[] = [];
    const inserting = (async () => {
      while (!stop) {
        const t0 = performance.now();
        await seedEvents(db, { orgId: ws.orgId, targets: [target], n: 2, spanSeconds: 0 }, 1);
        latencies.push(performance.now() - t0);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const dropped = await dropExpiredPartitions(db, new Date(), 90 * 86400);
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await inserting;
    latencies.sort((a, b) => a - b);
    process.stdout.write(
      `partitions: dropped ${dropped.length}; ${latencies.length} inserts meanwhile, ` +
        `p50 ${latencies[Math.floor(latencies.length / 2)]?.toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms\n`,
    );
    expect(dropped.length).toBeGreaterThanOrEqual(9);
    expect(await namesOf()).toEqual(before.filter((n) => !dropped.includes(n)));
    const left = await sql<{ n: number }>`
      select count(*)::int as n from events where created_at < now() - interval '90 days'`.execute(db);
    expect(left.rows[0]?.n).toBe(0);
    const counters = await sql<{ n: number }>`
      select count(*)::int as n from event_rollup where bucket < now() - interval '91 days'`.execute(db);
    expect(counters.rows[0]?.n).toBe(0);
    expect(latencies.length).toBeGreaterThan(3);
  });

  it('is what the worker maintenance runs: weeks ahead made, past ones dropped, old mailbox messages deleted', async () => {
    const db = database.db;
    const old = new Date(Date.now() - 30 * WEEK);
    await ensurePartitions(db, old, new Date(old.getTime() + WEEK));
    const mailbox = 'c'.repeat(32);
    await sql`insert into targets (id, org_id, kind, name) values (${mailbox}, ${ws.orgId}, 'mailbox', 'm')`.execute(
      db,
    );
    await sql`
      insert into mailbox_messages (id, org_id, mailbox_id, state, payload_size, created_at, expires_at)
      select md5(g::text), ${ws.orgId}, ${mailbox}, 'EXPIRED', 0, now() - make_interval(days => g), now()
        from generate_series(1, 120) g`.execute(db);
    const logs: unknown[] = [];
    const logger = { info: (o: unknown) => logs.push(o) } as unknown as Parameters<typeof keepPartitions>[1];
    await keepPartitions(db, logger, 90 * 86400);
    const names = await namesOf();
    expect(names).not.toContain(`events_p${weekStart(old).toISOString().slice(0, 10).replaceAll('-', '')}`);
    const ahead = weekStart(new Date(Date.now() + 7 * WEEK));
    expect(names).toContain(`events_p${ahead.toISOString().slice(0, 10).replaceAll('-', '')}`);
    const days = await sql<{ d: number }>`
      select (extract(epoch from now() - min(created_at)) / 86400)::int as d, count(*)::int as n
        from mailbox_messages where mailbox_id = ${mailbox}`.execute(db);
    // Messages from 1 to 120 days old: those before the boundary (00:00 UTC of 90 days ago) are gone.
    expect(days.rows[0]?.d).toBeLessThanOrEqual(91);
    expect(days.rows[0]?.d).toBeGreaterThanOrEqual(89);
    expect(logs).toHaveLength(1);
  });
});
