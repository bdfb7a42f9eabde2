// Proves, against the real database, how ingest's group commit shares transactions: items committed
// together run one batch at a time, so the items that arrive while a batch runs all go in the next one
// (rows inserted by one transaction share its xmin), each batch is enqueued once after its commit,
// and a row that fails its batch fails alone while the others of that batch are still committed.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createTarget, type NewItem } from '@evds/db';
import { newId } from '@evds/domain';
import { createGroupCommit } from '@evds/ingest-core';
import { createTestDatabase, seedWorkspace, type TestDatabase, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

let database: TestDatabase;
let ws: TestWorkspace;
let targetId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ws = await seedWorkspace(database.db);
  targetId = (
    await createTarget(database.db, {
      id: newId(),
      org_id: ws.orgId,
      kind: 'webhook',
      name: 'hook',
      url: 'https://93.184.215.14/hook',
    })
  ).id;
});
afterAll(() => database.drop());

const item = (): NewItem => ({
  id: newId(),
  orgId: ws.orgId,
  targetId,
  kind: 'webhook',
  eventType: 'order.paid',
  correlationId: null,
  payload: Buffer.from('{"n":1}'),
  requestId: null,
});

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
