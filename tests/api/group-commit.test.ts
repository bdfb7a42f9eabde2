// Proves, against the real database, how ingest's group commit shares transactions: items committed
// together run one batch at a time, so the items that arrive while a batch runs all go in the next one
// (rows inserted by one transaction share its xmin), each batch is enqueued once after its commit,
// and a row that fails its batch fails alone while the others of that batch are still committed.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { NewItem } from '@evds/db';
import { createGroupCommit } from '@evds/ingest-core';
import type { TestDatabase } from '@evds/testkit';
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
  await Promise.all(items.map((i) => commit.commit(i)));
  // The first runs alone at once; the 59 submitted while it ran go together. Several batches at a
  // time would have given each of the first few its own transaction.
  expect(await transactionsOf(items.map((i) => i.id))).toBe(2);
  expect(enqueued).toEqual([1, 59]);
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
