// Proves the event counters' update trigger is linear in the rows one statement changes and writes no
// counter row for changes that cancel out: a statement that changes no counted column (a payload drop)
// leaves every counter row as it was, one that moves statuses moves the counts exactly, and a statement
// over four times the rows takes about four times as long, not sixteen (the statement's old and new
// rows carry no statistics, and a join of them ran as a nested loop).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createDb, type Db } from '@evds/db';
import type { TestDatabase, TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { createItemFixture } from './item-kit.ts';

let database: TestDatabase;
let db: Db;
let ws: TestWorkspace;
let targetId: string;

beforeAll(async () => {
  ({ database, ws, targetId } = await createItemFixture());
  db = database.db;
});
afterAll(() => database.drop());

/** n QUEUED events of the workspace's target, tagged so one statement can change exactly them. */
async function seed(n: number, tag: string): Promise<void> {
  await sql`
    insert into events (id, org_id, target_id, target_kind, event_type, status, payload, payload_size, correlation_id)
    select lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || substr(md5(${tag} || g::text), 1, 20),
           ${ws.orgId}, ${targetId}, 'webhook', 'order.paid', 'QUEUED', convert_to('{}', 'UTF8'), 2, ${tag}
    from generate_series(1, ${n}) g`.execute(db);
}

const counterRows = async () =>
  (
    await sql<{ t: string }>`select (select json_agg(r order by r) from event_rollup r)::text ||
      (select json_agg(t order by t) from event_target_counts t)::text ||
      (select json_agg(y order by y) from event_type_counts y)::text as t`.execute(db)
  ).rows[0]?.t;

const delivered = async () =>
  Number(
    (
      await sql<{
        n: string;
      }>`select sum(delivered) as n from event_target_counts where target_id = ${targetId}`.execute(db)
    ).rows[0]?.n ?? 0,
  );

it('writes no counter row for a statement that changes no counted column, and moves statuses exactly', async () => {
  await seed(300, 'a');
  const before = await counterRows();
  await sql`update events set payload = null where correlation_id = 'a'`.execute(db);
  expect(await counterRows()).toBe(before);

  await sql`update events set status = 'DELIVERED' where correlation_id = 'a' and id < (
    select id from events where correlation_id = 'a' order by id offset 100 limit 1)`.execute(db);
  expect(await delivered()).toBe(100);
  const byStatus = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from events where target_id = ${targetId} group by 1 order by 1`.execute(
    db,
  );
  expect(byStatus.rows).toEqual([
    { status: 'DELIVERED', n: 100 },
    { status: 'QUEUED', n: 200 },
  ]);
});

it('takes time linear in the rows a statement changes, after a one-row change planned it', async () => {
  // One session: the trigger's statement is planned at its first run there and the plan kept, so a
  // session whose first change was one row (a worker's first attempt) plans for one row.
  const one = createDb({ url: database.url, poolSize: 1 });
  const timed = async (n: number, tag: string) => {
    await seed(n, tag);
    const t = performance.now();
    await sql`update events set status = 'FAILED', final_reason = 'test' where correlation_id = ${tag}`.execute(
      one,
    );
    return performance.now() - t;
  };
  try {
    await timed(1, 'first');
    const small = Math.min(await timed(1000, 's1'), await timed(1000, 's2'));
    const large = Math.min(await timed(4000, 'l1'), await timed(4000, 'l2'));
    console.log(`status change of 1,000 rows: ${small.toFixed(0)} ms; of 4,000: ${large.toFixed(0)} ms`);
    expect(large / small).toBeLessThan(8);
  } finally {
    await one.destroy();
  }
});
