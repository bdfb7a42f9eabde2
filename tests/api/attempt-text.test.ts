// Against a real Postgres: what a receiver or an agent answers may hold U+0000, which Postgres text
// cannot. A batch of attempt records where one carries it in every text it can reach (body, error, a2a
// task id and state, the final reason) is written whole, that one with U+FFFD in its place, and its
// neighbour in the batch as sent.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  createOrganization,
  createTarget,
  insertItems,
  recordAttempts,
  type AttemptRecord,
  type Db,
} from '@evds/db';
import { newAttemptId, newId } from '@evds/domain';
import { createTestDatabase, type TestDatabase } from '@evds/testkit';

let database: TestDatabase;
let db: Db;
const orgId = newId();
const targetId = newId();

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await createOrganization(db, { id: orgId, name: 'Nul', slug: `nul-${orgId.slice(0, 8)}` });
  await createTarget(db, { id: targetId, org_id: orgId, kind: 'a2a', name: 'agent', url: 'https://a.test/' });
});
afterAll(() => database.drop());

async function item(): Promise<string> {
  const id = newId();
  await insertItems(db, [
    {
      id,
      orgId,
      targetId,
      kind: 'a2a',
      eventType: null,
      correlationId: null,
      payload: Buffer.from('{}'),
      requestId: null,
    },
  ]);
  return id;
}

const record = (eventId: string, text: string): AttemptRecord => ({
  attempt: {
    id: newAttemptId(),
    event_id: eventId,
    org_id: orgId,
    target_id: targetId,
    attempt_number: 1,
    status_code: 200,
    duration_ms: 3,
    attempted_at: new Date(),
    response_body: `body ${text}`,
    error: `error ${text}`,
    a2a_task_id: `task ${text}`,
    a2a_task_state: `state ${text}`,
  },
  expectedAttemptCount: 0,
  outcome: { status: 'FAILED', reason: `reason ${text}` },
});

it('writes a batch whose answers hold NUL, with U+FFFD in its place', async () => {
  const [nul, plain] = [await item(), await item()];
  expect(await recordAttempts(db, [record(nul, 'a\u0000b'), record(plain, 'ab')])).toEqual([true, true]);
  const rows = await db
    .selectFrom('delivery_attempts as a')
    .innerJoin('events as e', 'e.id', 'a.event_id')
    .select(['e.id', 'e.final_reason', 'a.response_body', 'a.error', 'a.a2a_task_id', 'a.a2a_task_state'])
    .where('e.id', 'in', [nul, plain])
    .execute();
  const texts = (id: string) => {
    const r = rows.find((x) => x.id === id);
    return [r?.response_body, r?.error, r?.a2a_task_id, r?.a2a_task_state, r?.final_reason];
  };
  expect(texts(nul)).toEqual([
    'body a\uFFFDb',
    'error a\uFFFDb',
    'task a\uFFFDb',
    'state a\uFFFDb',
    'reason a\uFFFDb',
  ]);
  expect(texts(plain)).toEqual(['body ab', 'error ab', 'task ab', 'state ab', 'reason ab']);
});
