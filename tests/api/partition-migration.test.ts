// Proves the migration to the partitioned event store (2026-11-27T1000) on a database that already
// holds data: every event, attempt and usage record is kept, in the week partition of its time (one
// made for a row older than the default range too); the counters start exact; the usage rollup is
// unchanged and the next usage record numbers on; a running recovery's replays are claimed; and older
// random ids are still found by the detail and by the worker's load, even one whose first digits
// happen to read as a recent time (the lookup narrowed by that time misses, the wide one finds it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDb, getEvent, loadDeliveryWorkMany, migrateToLatest, type Db } from '@evds/db';
import { migrationProvider } from '@evds/db/migrations';
import { seedWorkspace, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';

const server = process.env.EVDS_TEST_PG ?? '';
const name = `evds_mig_${Date.now().toString(36)}`;
let admin: Db;
let db: Db;
let ws: TestWorkspace;
const target = 'b'.repeat(32);
/** Looks like an id made now, but its event is 200 days old. */
const lookalike = Date.now().toString(16).padStart(12, '0') + 'c'.repeat(20);
const counts = ['events', 'delivery_attempts', 'usage_records', 'usage_monthly'] as const;
let before: Record<string, number>;
let monthly: unknown[];

const countAll = async (): Promise<Record<string, number>> => {
  const entries = await Promise.all(
    counts.map(async (t): Promise<[string, number]> => {
      const r = await sql<{ n: string }>`select count(*) as n from ${sql.table(t)}`.execute(db);
      return [t, Number(r.rows[0]?.n)];
    }),
  );
  return Object.fromEntries(entries);
};

beforeAll(async () => {
  admin = createDb({ url: `${server}/postgres`, poolSize: 1 });
  await sql`create database ${sql.raw(name)}`.execute(admin);
  db = createDb({ url: `${server}/${name}`, poolSize: 2 });
  const migrator = new Migrator({ db, provider: migrationProvider });
  const to = await migrator.migrateTo('2026-11-26T0900-test-items');
  if (to.error) throw new Error('could not migrate to the step before', { cause: to.error });
  ws = await seedWorkspace(db);
  await sql`insert into targets (id, org_id, kind, name, url) values (${target}, ${ws.orgId}, 'webhook', 't', 'https://127.0.0.1:9/')`.execute(
    db,
  );
  await sql`
    insert into events (id, org_id, target_id, target_kind, event_type, status, payload, payload_size, created_at, next_attempt_at)
    select md5(g::text), ${ws.orgId}, ${target}, 'webhook', 'type.' || (g % 3),
           (array['QUEUED','DELIVERED','FAILED'])[1 + g % 3], convert_to('{}', 'UTF8'), 2,
           now() - make_interval(days => g % 250), now()
      from generate_series(1, 500) g`.execute(db);
  await sql`
    insert into events (id, org_id, target_id, target_kind, status, payload, payload_size, created_at)
    values (${lookalike}, ${ws.orgId}, ${target}, 'webhook', 'QUEUED', convert_to('{}', 'UTF8'), 2, now() - interval '200 days')`.execute(
    db,
  );
  await sql`
    insert into delivery_attempts (id, event_id, org_id, target_id, attempt_number, status_code, duration_ms, attempted_at)
    select 'da_' || id, id, org_id, target_id, 1, 200, 5, created_at + interval '1 second' from events`.execute(
    db,
  );
  await sql`insert into usage_records (org_id, item_id, item_kind, created_at) select org_id, id, 'webhook', created_at from events`.execute(
    db,
  );
  await sql`
    insert into recoveries (id, org_id, target_id, since, until, statuses, state, matched)
    values ('r1', ${ws.orgId}, ${target}, now() - interval '1 day', now(), '{DELIVERED}', 'running', 1)`.execute(
    db,
  );
  await sql`update events set recovery_id = 'r1', source_event_id = md5('1') where id = md5('2')`.execute(db);
  before = await countAll();
  monthly = (await sql<Record<string, unknown>>`select * from usage_monthly order by 1, 2, 3`.execute(db))
    .rows;
  await migrateToLatest(db);
}, 60_000);
afterAll(async () => {
  await db.destroy();
  await sql`drop database if exists ${sql.raw(name)} with (force)`.execute(admin);
  await admin.destroy();
});

describe('migrating existing data to the partitioned store', () => {
  it('keeps every row, each in the partition of its week, and the usage rollup as it was', async () => {
    expect(await countAll()).toEqual(before);
    expect((await sql`select * from usage_monthly order by 1, 2, 3`.execute(db)).rows).toEqual(monthly);
    const misplaced = await sql<{ n: number }>`
      select count(*)::int as n from events
       where tableoid::regclass::text <> 'events_p' || to_char(date_trunc('week', created_at, 'UTC') at time zone 'UTC', 'YYYYMMDD')`.execute(
      db,
    );
    expect(misplaced.rows[0]?.n).toBe(0);
    const next = await sql<{ id: string }>`
      insert into usage_records (org_id, item_id, item_kind) values (${ws.orgId}, 'new', 'webhook') returning id`.execute(
      db,
    );
    const max = await sql<{
      m: string;
    }>`select max(id) as m from usage_records where item_id <> 'new'`.execute(db);
    expect(Number(next.rows[0]?.id)).toBeGreaterThan(Number(max.rows[0]?.m));
  });

  it('starts the counters exact', async () => {
    const r = await sql<{ counted: string; rows: string }>`
      select (select sum(queued + delivered + failed + retrying + expired + replayed) from event_rollup where grain = 86400) as counted,
             (select count(*) from events) as rows`.execute(db);
    expect(Number(r.rows[0]?.counted)).toBe(Number(r.rows[0]?.rows));
  });

  it("claims the running recovery's replays", async () => {
    const r = await sql<{
      recovery_id: string;
      source_event_id: string;
    }>`select * from recovery_replays`.execute(db);
    expect(r.rows).toEqual([
      {
        recovery_id: 'r1',
        source_event_id: (await sql<{ h: string }>`select md5('1') as h`.execute(db)).rows[0]?.h,
      },
    ]);
  });

  it('finds older random ids, and a random id that reads as a recent time, by detail and worker load', async () => {
    const ids = [(await sql<{ h: string }>`select md5('7') as h`.execute(db)).rows[0]?.h ?? '', lookalike];
    for (const id of ids) expect((await getEvent(db, ws.orgId, id, new Date(0)))?.id).toBe(id);
    expect((await loadDeliveryWorkMany(db, ids)).map((w) => w.id).sort()).toEqual([...ids].sort());
  });
});
