// Proves how attempt outcomes become a target's durable health, against the real database: a run of
// failures counts up from its first failure (failing_since) and a success ends it; a batch's outcomes
// count in time order whatever order they come in, across several targets in one call; failures older
// than a success already recorded by another worker change no run; a healthy target's row is not
// rewritten for successes within 60 s of its stored last success (its row version stays the same) but
// is once the stored one is older, and at once when it was failing; and batches noted concurrently over
// the same targets, in opposite orders, all count and never deadlock.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTarget, noteAttemptOutcomes, type AttemptOutcomeNote, type Db } from '@evds/db';
import { newId } from '@evds/domain';
import { createTestDatabase, seedWorkspace, type TestDatabase, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

let database: TestDatabase;
let db: Db;
let ws: TestWorkspace;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  ws = await seedWorkspace(db);
});
afterAll(() => database.drop());

const t0 = new Date('2026-11-24T10:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const ok = (targetId: string, s: number): AttemptOutcomeNote => ({ targetId, at: at(s), ok: true });
const fail = (targetId: string, s: number): AttemptOutcomeNote => ({ targetId, at: at(s), ok: false });

async function newTarget(): Promise<string> {
  const t = await createTarget(db, {
    id: newId(),
    org_id: ws.orgId,
    kind: 'webhook',
    name: 'hook',
    url: 'https://93.184.215.14/hook',
  });
  return t.id;
}

async function health(id: string) {
  const r = await db
    .selectFrom('targets')
    .select([
      'failing_since',
      'last_success_at',
      'last_failure_at',
      'consecutive_failures',
      sql<string>`xmin::text`.as('version'),
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return r;
}

describe('noteAttemptOutcomes', () => {
  it('counts a run of failures from its first and ends it with a success', async () => {
    const id = await newTarget();
    await noteAttemptOutcomes(db, [fail(id, 0)]);
    expect(await health(id)).toMatchObject({
      failing_since: at(0),
      last_failure_at: at(0),
      last_success_at: null,
      consecutive_failures: 1,
    });
    await noteAttemptOutcomes(db, [fail(id, 2), fail(id, 1)]);
    expect(await health(id)).toMatchObject({
      failing_since: at(0),
      last_failure_at: at(2),
      consecutive_failures: 3,
    });
    await noteAttemptOutcomes(db, [ok(id, 3)]);
    expect(await health(id)).toMatchObject({
      failing_since: null,
      last_success_at: at(3),
      last_failure_at: at(2),
      consecutive_failures: 0,
    });
  });

  it('takes a batch in time order, for several targets in one call', async () => {
    const [a, b, c] = [await newTarget(), await newTarget(), await newTarget()];
    // Given out of order: a fails, succeeds, then fails twice; b fails then succeeds; c only succeeds.
    await noteAttemptOutcomes(db, [
      fail(a, 13),
      ok(b, 11),
      fail(a, 10),
      ok(c, 10),
      fail(a, 12),
      fail(b, 10),
      ok(a, 11),
    ]);
    expect(await health(a)).toMatchObject({
      failing_since: at(12),
      last_success_at: at(11),
      last_failure_at: at(13),
      consecutive_failures: 2,
    });
    expect(await health(b)).toMatchObject({
      failing_since: null,
      last_success_at: at(11),
      last_failure_at: at(10),
      consecutive_failures: 0,
    });
    expect(await health(c)).toMatchObject({
      failing_since: null,
      last_success_at: at(10),
      last_failure_at: null,
    });

    // A failing target that succeeds within the batch and fails no more is healthy again.
    await noteAttemptOutcomes(db, [fail(a, 14), ok(a, 15), ok(a, 16)]);
    expect(await health(a)).toMatchObject({
      failing_since: null,
      last_success_at: at(16),
      last_failure_at: at(14),
      consecutive_failures: 0,
    });
  });

  it('ignores for the run failures older than a success another worker recorded', async () => {
    const id = await newTarget();
    await noteAttemptOutcomes(db, [fail(id, 20), ok(id, 25)]);
    // A slower worker's batch: its attempts ended before the success above.
    await noteAttemptOutcomes(db, [fail(id, 21), fail(id, 22)]);
    expect(await health(id)).toMatchObject({
      failing_since: null,
      last_success_at: at(25),
      last_failure_at: at(22),
      consecutive_failures: 0,
    });
    // A failure after it does start a run.
    await noteAttemptOutcomes(db, [fail(id, 26)]);
    expect(await health(id)).toMatchObject({ failing_since: at(26), consecutive_failures: 1 });
  });

  it('leaves a healthy target’s row alone for successes within 60 s of its last success', async () => {
    const id = await newTarget();
    await noteAttemptOutcomes(db, [ok(id, 100)]);
    const first = await health(id);
    expect(first.last_success_at).toEqual(at(100));

    for (const s of [110, 130, 159, 160]) await noteAttemptOutcomes(db, [ok(id, s), ok(id, s - 5)]);
    const quiet = await health(id);
    expect(quiet.last_success_at).toEqual(at(100));
    expect(quiet.version).toBe(first.version); // not written at all

    // Over 60 s after the stored success: it moves (once).
    await noteAttemptOutcomes(db, [ok(id, 161)]);
    const moved = await health(id);
    expect(moved.last_success_at).toEqual(at(161));
    expect(moved.version).not.toBe(first.version);

    // A failing target's success is written at once, however recent the stored one.
    await noteAttemptOutcomes(db, [fail(id, 170)]);
    await noteAttemptOutcomes(db, [ok(id, 171)]);
    expect(await health(id)).toMatchObject({
      failing_since: null,
      last_success_at: at(171),
      consecutive_failures: 0,
    });
    // A batch that succeeds and then fails is written anyway, with its success.
    await noteAttemptOutcomes(db, [ok(id, 180), fail(id, 181)]);
    expect(await health(id)).toMatchObject({
      failing_since: at(181),
      last_success_at: at(180),
      consecutive_failures: 1,
    });
  });

  it('counts every failure of batches noted concurrently over the same targets', async () => {
    const [a, b] = [await newTarget(), await newTarget()];
    const rounds = 20;
    await Promise.all(
      Array.from({ length: rounds }, (_, i) =>
        // Half the batches name a first, half b first; each fails both targets twice.
        noteAttemptOutcomes(
          db,
          i % 2 === 0
            ? [fail(a, 200 + i), fail(b, 200 + i), fail(a, 300 + i), fail(b, 300 + i)]
            : [fail(b, 200 + i), fail(a, 200 + i), fail(b, 300 + i), fail(a, 300 + i)],
        ),
      ),
    );
    for (const id of [a, b])
      expect(await health(id)).toMatchObject({
        consecutive_failures: rounds * 2,
        failing_since: at(200),
        last_failure_at: at(300 + rounds - 1),
      });
  });

  it('does nothing for no outcomes or an unknown target', async () => {
    await noteAttemptOutcomes(db, []);
    await noteAttemptOutcomes(db, [fail(newId(), 1)]);
  });
});
