// What the suites on ingest's insert, the worker's statements and the event counters start from: a
// fresh database with one organization and one webhook target, and new items for that target as ingest
// makes them.
import { createTarget, type NewItem } from '@evds/db';
import { newId } from '@evds/domain';
import { createTestDatabase, seedWorkspace, type TestDatabase, type TestWorkspace } from '@evds/testkit';

export interface ItemFixture {
  database: TestDatabase;
  ws: TestWorkspace;
  targetId: string;
  /** A new item for the target, not stored yet. */
  item(): NewItem;
}

export async function createItemFixture(): Promise<ItemFixture> {
  const database = await createTestDatabase();
  const ws = await seedWorkspace(database.db);
  const { id: targetId } = await createTarget(database.db, {
    id: newId(),
    org_id: ws.orgId,
    kind: 'webhook',
    name: 'hook',
    url: 'https://93.184.215.14/hook',
  });
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
  return { database, ws, targetId, item };
}
