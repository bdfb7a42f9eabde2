// Proves, against the real database, how ingest's group commit shares transactions: the items of one
// turn of the event loop share a batch, batches run one at a time, and the items that arrive while a
// batch runs all go in the next one (rows inserted by one transaction share its xmin). Each batch is
// enqueued once after its commit, and a row that fails its batch fails alone while the others of that
// batch are still committed. A batch's items are enqueued as group jobs of up to JOB_GROUP_MAX, whose
// numbers their rows keep; an item alone, or committed alone after its batch failed, keeps a job of
// its own.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { NewItem } from '@evds/db';
import { createGroupCommit, enqueueItems } from '@evds/ingest-core';
import { createProducer, createRedis, JOB_GROUP_MAX, jobGroupId } from '@evds/queue';
import { createLogger } from '@evds/runtime';
import { testRedisPrefix, testRedisUrl, type TestDatabase } from '@evds/testkit';
import { sql } from 'kysely';
import { createItemFixture, type ItemFixture } from './item-kit.ts';

let fixture: ItemFixture;
let database: TestDatabase;
const item = () => fixture.item();

beforeAll(async () => {
  fixture = await createItemFixture();
  database = fixture.database;
});
afterAll(() => database.drop());

/** How many transactions inserted these events. */
const transactionsOf = async (ids: string[]) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(distinct xmin::text) as n from events where id = any(${ids})`.execute(database.db)
    ).rows[0]?.n,
  );

it('runs one batch at a time: the items that arrive meanwhile share the next transaction', async () => {
  const enqueued: number[] = [];
  const commit = createGroupCommit(database.db, {
    maxBatch: 200,
    afterCommit: (items) => {
      enqueued.push(items.length);
      return Promise.resolve();
    },
  });
  const items = Array.from({ length: 60 }, () => item());
  // Thirty submitted in one turn run together at its end; the thirty submitted while that batch runs
  // go together in the next. Several batches at a time would have split the second thirty.
  const first = items.slice(0, 30).map((i) => commit.commit(i));
  await new Promise((r) => setImmediate(r));
  const next = items.slice(30).map((i) => commit.commit(i));
  await Promise.all([...first, ...next]);
  expect(await transactionsOf(items.map((i) => i.id))).toBe(2);
  expect(enqueued).toEqual([30, 30]);
});

it('fails only the row that breaks its batch; the others of that batch are committed', async () => {
  const commit = createGroupCommit(database.db, { maxBatch: 200, afterCommit: () => Promise.resolve() });
  const first = item();
  const good = [item(), item(), item()];
  // A kind the usage records' check constraint refuses: this row alone breaks the batch.
  const bad = { ...item(), kind: 'pager' as NewItem['kind'] };
  const results = await Promise.allSettled([first, ...good, bad].map((i) => commit.commit(i)));
  expect(results.map((r) => r.status)).toEqual([
    'fulfilled',
    'fulfilled',
    'fulfilled',
    'fulfilled',
    'rejected',
  ]);
  const stored = await database.db
    .selectFrom('events')
    .select('id')
    .where(
      'id',
      'in',
      [first, ...good, bad].map((i) => i.id),
    )
    .execute();
  expect(stored.map((r) => r.id).sort()).toEqual([first, ...good].map((i) => i.id).sort());
});

/** The stored job group of each id (null: a job of its own). */
const groupsOf = async (ids: string[]) =>
  new Map(
    (await database.db.selectFrom('events').select(['id', 'job_group']).where('id', 'in', ids).execute()).map(
      (r) => [r.id, r.job_group],
    ),
  );

it('enqueues a batch as group jobs of up to JOB_GROUP_MAX items, whose numbers the rows keep', async () => {
  const redis = createRedis(testRedisUrl(), { role: 'client' });
  const producer = createProducer(redis, testRedisPrefix());
  const logger = createLogger({ level: 'silent', name: 'group-commit-test' });
  try {
    const commit = createGroupCommit(database.db, {
      maxBatch: 200,
      afterCommit: (items) => enqueueItems(producer, logger, items),
    });
    const items = Array.from({ length: 2 * JOB_GROUP_MAX + 3 }, () => item());
    // The first item is alone in its turn, so in its batch: its own job. The other 42, submitted while
    // it runs, share the next batch: three groups (20, 20, 2).
    const alone = commit.commit(items[0]!);
    await new Promise((r) => setImmediate(r));
    await Promise.all([alone, ...items.slice(1).map((i) => commit.commit(i))]);

    const stored = await groupsOf(items.map((i) => i.id));
    const [first, ...rest] = items.map((i) => i.id);
    expect(stored.get(first ?? '')).toBeNull();
    const queue = producer.queue('webhook');
    expect(await queue.getJobState(first ?? '')).toBe('waiting');
    const groups = new Map<number, string[]>();
    for (const id of rest) {
      const group = stored.get(id);
      if (!group) throw new Error(`${id} has no job group`);
      groups.set(group, [...(groups.get(group) ?? []), id]);
    }
    expect([...groups.values()].map((g) => g.length)).toEqual([JOB_GROUP_MAX, JOB_GROUP_MAX, 2]);
    for (const [group, ids] of groups) {
      const job = await queue.getJob(jobGroupId(group));
      expect(job?.data).toEqual({ eventIds: ids });
      // No job of their own: the group's job carries them.
      expect(await queue.getJobState(ids[0] ?? '')).toBe('unknown');
    }
    await queue.obliterate({ force: true });
  } finally {
    await producer.close();
    redis.disconnect();
  }
});

it('stores no job group for the rows of a failed batch, committed one by one', async () => {
  const enqueued: (number | undefined)[] = [];
  const commit = createGroupCommit(database.db, {
    maxBatch: 200,
    afterCommit: (items) => {
      enqueued.push(...items.map((i) => i.jobGroup));
      return Promise.resolve();
    },
  });
  const first = item();
  const good = [item(), item()];
  const bad = { ...item(), kind: 'pager' as NewItem['kind'] };
  await Promise.allSettled([first, ...good, bad].map((i) => commit.commit(i)));
  const stored = await groupsOf([first, ...good].map((i) => i.id));
  expect([...stored.values()]).toEqual([null, null, null]);
  expect(enqueued).toEqual([undefined, undefined, undefined]);
});
