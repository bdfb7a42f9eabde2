// Proves, against the real database, that the statements every item runs (the ingest insert, the
// worker's load, its attempt record, the targets' health) run as named statements whose plans are kept
// (pg_prepared_statements of the session for named statements shows each with generic plans and no
// custom ones) while the handle's other sessions prepare nothing,
// that their results are the same as before (the item loads, its attempt moves it), and that they go on
// working after the partitions under them change (a partition attached and one detached and dropped,
// as maintenance does while workers run), that the record's kept plan probes the primary key per
// item even when it is made behind a backlog the statistics do not know of yet, and that the sessions
// keeping the plans are replaced after their lifetime (so a plan made on a partition still empty does
// not last where autovacuum never analyzes it).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  createDb,
  ensurePartitions,
  insertItems,
  loadDeliveryWorkMany,
  namedPoolOf,
  noteAttemptOutcomes,
  recordAttempts,
  type Db,
} from '@evds/db';
import { newAttemptId } from '@evds/domain';
import type { TestDatabase, TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { createItemFixture, type ItemFixture } from './item-kit.ts';
import { planNodes, type PlanNode } from './plan-kit.ts';

let fixture: ItemFixture;
let database: TestDatabase;
let one: Db;
let ws: TestWorkspace;
let targetId: string;
const item = () => fixture.item();

beforeAll(async () => {
  fixture = await createItemFixture();
  ({ database, ws, targetId } = fixture);
  // One connection: every statement below runs in the session whose prepared statements are read.
  one = createDb({ url: database.url, poolSize: 1 });
});
afterAll(async () => {
  await one.destroy();
  await database.drop();
});

/** One item through the hot path: accepted, loaded, attempted (delivered), its target's health noted. */
async function deliverOne(on: Db = one): Promise<void> {
  const it = item();
  await insertItems(on, [it]);
  const [work] = await loadDeliveryWorkMany(on, [it.id]);
  expect(work).toMatchObject({
    id: it.id,
    status: 'QUEUED',
    attempt_count: 0,
    url: 'https://93.184.215.14/hook',
  });
  const attemptedAt = new Date();
  const moved = await recordAttempts(on, [
    {
      attempt: {
        id: newAttemptId(),
        event_id: it.id,
        org_id: ws.orgId,
        target_id: targetId,
        attempt_number: 1,
        status_code: 204,
        duration_ms: 3,
        attempted_at: attemptedAt,
        response_body: null,
        error: null,
        a2a_task_id: null,
        a2a_task_state: null,
      },
      expectedAttemptCount: 0,
      eventCreatedAt: work?.created_at,
      outcome: { status: 'DELIVERED' },
    },
  ]);
  expect(moved).toEqual([true]);
  await noteAttemptOutcomes(on, [{ targetId, at: attemptedAt, ok: true }]);
  const row = await on
    .selectFrom('events')
    .select(['status', 'attempt_count'])
    .where('id', '=', it.id)
    .executeTakeFirst();
  expect(row).toEqual({ status: 'DELIVERED', attempt_count: 1 });
}

type Prepared = { name: string; statement: string; generic_plans: number; custom_plans: number };
const listPrepared = 'select name, statement, generic_plans, custom_plans from pg_prepared_statements';
// Statements run one after another reuse the one idle session of the pool for named statements.
const prepared = async () => (await namedPoolOf(one)!.query<Prepared>(listPrepared)).rows;

it('runs the per-item statements as named statements with kept plans', async () => {
  for (let i = 0; i < 3; i++) await deliverOne();
  const rows = await prepared();
  const of = (fragment: string) => rows.filter((r) => r.statement.includes(fragment));
  for (const fragment of [
    'insert into usage_records',
    'from "events" as "e" inner join "targets"',
    'insert into delivery_attempts',
    'update targets t set',
  ]) {
    const [statement, ...more] = of(fragment);
    expect({ fragment, more: more.length }).toEqual({ fragment, more: 0 });
    expect(statement?.name).toMatch(/^evds_[0-9a-f]{20}$/);
    expect(statement?.generic_plans).toBe(3);
    expect(statement?.custom_plans).toBe(0);
  }
  // The handle's own sessions prepare nothing: other statements keep ordinary plans.
  expect((await sql.raw<Prepared>(listPrepared).execute(one)).rows).toEqual([]);
});

it('goes on working when partitions are attached, detached and dropped under the kept plans', async () => {
  const far = new Date(Date.UTC(2031, 0, 6));
  const created = await ensurePartitions(database.db, far, new Date(far.getTime() + 7 * 86_400_000));
  expect(created.length).toBeGreaterThan(0);
  await deliverOne();
  for (const name of created.filter((n) => n.startsWith('events_'))) {
    await sql`alter table events detach partition ${sql.id(name)}`.execute(database.db);
    await sql`drop table ${sql.id(name)}`.execute(database.db);
  }
  await deliverOne();
  expect(
    (await prepared()).filter((r) => r.statement.includes('insert into delivery_attempts')),
  ).toHaveLength(1);
});

// EXECUTE takes its arguments as literals (strings, numbers, times and arrays of them, or null).
const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const text = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
const literal = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? quote(`{${v.map((e) => (e === null ? 'NULL' : `"${text(e).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`)
      : quote(text(v));

it("finds each recorded item by its primary key under the record's kept plan, behind a backlog", async () => {
  // A backlog of pending items in the current partition, inserted since its statistics were taken
  // (a burst, or an outage's backlog); a fresh handle, whose sessions plan the record for the first time.
  await sql`
    insert into events (id, org_id, target_id, target_kind, event_type, status, payload, payload_size)
    select lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || substr(md5(g::text), 1, 20),
           ${ws.orgId}, ${targetId}, 'webhook', 'order.paid', 'QUEUED', convert_to('{}', 'UTF8'), 2
    from generate_series(1, 20000) g`.execute(database.db);
  const fresh = createDb({ url: database.url, poolSize: 1 });
  const pool = namedPoolOf(fresh)!;
  // The statement as the worker sends it (its name and values), read off the pool's calls.
  const query = pool.query.bind(pool);
  let sent: { name: string; values: unknown[] } | undefined;
  pool.query = ((config: { name: string; text: string; values: unknown[] }) => {
    if (config.text.includes('insert into delivery_attempts')) sent = config;
    return query(config as never);
  }) as unknown as typeof pool.query;
  try {
    await deliverOne(fresh);
    pool.query = query;
    // The kept (generic) plan knows neither how many items come nor which: each must be one probe of
    // the primary key in its partition, never a pass over the pending items.
    const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `explain (format json) execute ${sent!.name}(${sent!.values.map(literal).join(', ')})`,
    );
    const scans = planNodes(rows[0]!['QUERY PLAN'][0].Plan).filter((n) =>
      n['Relation Name']?.startsWith('events_'),
    );
    expect(scans.length).toBeGreaterThan(0);
    for (const n of scans)
      expect({ type: n['Node Type'], index: n['Index Name'] }).toEqual({
        type: 'Index Scan',
        index: `${n['Relation Name']}_pkey`,
      });
  } finally {
    pool.query = query;
    await fresh.destroy();
  }
});

it('replaces the sessions of the named statements after their lifetime, still keeping generic plans', async () => {
  const short = createDb({ url: database.url, poolSize: 1, namedLifetimeSeconds: 1 });
  try {
    const pool = namedPoolOf(short)!;
    const session = async () =>
      (
        await pool.query<{ pid: number; mode: string }>(
          "select pg_backend_pid() as pid, current_setting('plan_cache_mode') as mode",
        )
      ).rows[0]!;
    const first = await session();
    expect(await session()).toEqual(first);
    await new Promise((r) => setTimeout(r, 1_500));
    const later = await session();
    expect(later.pid).not.toBe(first.pid);
    expect(later.mode).toBe('force_generic_plan');
  } finally {
    await short.destroy();
  }
});
