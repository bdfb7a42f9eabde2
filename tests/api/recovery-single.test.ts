// Proves that a target has at most one running recovery, over real HTTP against the API with no delivery
// worker (so a recovery stays running): a second POST /api/v1/targets/:id/recover of the same target
// answers 409 conflict naming the running recovery's id and writes nothing, while another target of the
// same organization still gets its 202; ten concurrent requests for one target give exactly one 202 and
// nine 409s naming the winner, with one recovery row in Postgres (the partial unique index holds what the
// request's own check cannot); the refusals take no place in the target's ingest window
// (INGEST_RATE_LIMIT=20); and once the running one has finished, completed or failed, a new one is 202.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

const WINDOW = 20;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_LIMIT: String(WINDOW), INGEST_RATE_WINDOW_SECONDS: '600' });
});
afterAll(async () => {
  await api.stop();
});

async function webhookTarget(ws: TestWorkspace): Promise<string> {
  const r = await api.request<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'webhook', name: 'hook', url: 'https://127.0.0.1:9/hook' },
  });
  expect(r.status).toBe(201);
  return r.body.target.id;
}

const recover = (ws: TestWorkspace, target: string) =>
  api.request<{ id: string; state: string; error: string; code: string }>(
    `/api/v1/targets/${target}/recover`,
    {
      key: ws.apiKey,
      body: { since: 0 },
    },
  );

const alreadyRunning = (id: string) => ({
  error: `a recovery of this target is already running: ${id}; wait for it to finish`,
  code: 'conflict',
});

const recoveriesOf = async (target: string) =>
  api.database.db
    .selectFrom('recoveries')
    .select(['id', 'state'])
    .where('target_id', '=', target)
    .orderBy('created_at')
    .execute();

/** Ends a recovery as the job would, straight in Postgres (no worker runs here). */
const finish = (id: string, state: 'completed' | 'failed') =>
  api.database.db
    .updateTable('recoveries')
    .set({
      state,
      finished_at: new Date(),
      failure_reason: state === 'failed' ? 'the target is disabled' : null,
    })
    .where('id', '=', id)
    .execute();

describe('one running recovery per target', () => {
  it('refuses a second recovery of a target while one runs (409 naming it), not of another target', async () => {
    const ws = await seedWorkspace(api.database.db);
    const target = await webhookTarget(ws);
    const first = await recover(ws, target);
    expect([first.status, first.body.state]).toEqual([202, 'running']);

    const second = await recover(ws, target);
    expect([second.status, second.body]).toEqual([409, alreadyRunning(first.body.id)]);
    expect(await recoveriesOf(target)).toEqual([{ id: first.body.id, state: 'running' }]);

    const other = await webhookTarget(ws);
    const elsewhere = await recover(ws, other);
    expect([elsewhere.status, elsewhere.body.state]).toEqual([202, 'running']);
  });

  it('lets exactly one of ten concurrent recoveries of a target start', async () => {
    const ws = await seedWorkspace(api.database.db);
    const target = await webhookTarget(ws);
    const answers = await Promise.all(Array.from({ length: 10 }, () => recover(ws, target)));
    const started = answers.filter((r) => r.status === 202);
    expect(started).toHaveLength(1);
    const winner = started[0]?.body.id ?? '';
    const refused = answers.filter((r) => r.status !== 202).map((r) => [r.status, r.body]);
    expect(refused).toEqual(Array.from({ length: 9 }, () => [409, alreadyRunning(winner)]));
    expect(await recoveriesOf(target)).toEqual([{ id: winner, state: 'running' }]);
  });

  it.each(['completed', 'failed'] as const)(
    'starts a new recovery once the running one has %s; the refusals took no place in the window',
    async (state) => {
      const ws = await seedWorkspace(api.database.db);
      const target = await webhookTarget(ws);
      const first = await recover(ws, target);
      expect(first.status).toBe(202);
      // More refusals than the window holds: were they counted, the next request would be 429.
      for (let i = 0; i < WINDOW; i++) expect((await recover(ws, target)).status).toBe(409);

      await finish(first.body.id, state);
      const next = await recover(ws, target);
      expect([next.status, next.body.state]).toEqual([202, 'running']);
      expect(next.body.id).not.toBe(first.body.id);
      expect(await recoveriesOf(target)).toEqual([
        { id: first.body.id, state },
        { id: next.body.id, state: 'running' },
      ]);
      const again = await recover(ws, target);
      expect([again.status, again.body]).toEqual([409, alreadyRunning(next.body.id)]);
    },
  );
});
