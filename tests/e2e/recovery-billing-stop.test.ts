// Proves against api, ingest and the delivery worker as separate processes and a real HTTPS receiver
// that a recovery stops when its workspace becomes billing-blocked part way: 60 delivered events are
// recovered at 10 a second; once some are replayed the workspace is suspended; the recovery then ends
// `failed` with a failure_reason naming billing, having replayed fewer than matched, and replays nothing
// more afterwards. Once billing is active again, a new recovery over the same range replays only what
// the stopped one did not, so together each original is replayed exactly once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setBillingStatus } from '@evds/db';
import { seedWorkspace, startStackWithReceiver } from '@evds/testkit';
import type { Receiver, Stack } from '@evds/testkit';
import { sql } from 'kysely';
import { createWebhookTarget, pollUntil, sendMany, waitForStatus } from './helpers.ts';

type Recovery = {
  id: string;
  state: string;
  matched: number;
  replayed: number;
  failure_reason: string | null;
};

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    env: { RECOVERY_RATE_PER_SECOND: '10', INGEST_RATE_LIMIT: '100000' },
  }));
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a recovery whose workspace becomes billing-blocked', () => {
  it('stops, failed with a billing failure_reason, and replays nothing more', async () => {
    const ws = await seedWorkspace(stack.db);
    const target = (await createWebhookTarget(stack, ws, `${receiver.url}/stop`)).id;
    const since = Math.floor(Date.now() / 1000) - 1;
    const originals = [...(await sendMany(stack, ws, target, 60, 10)).keys()];
    for (const id of originals) await waitForStatus(stack, ws, id, 'DELIVERED');
    // The range ends before any replay exists, so a later recovery over it sees originals only.
    const until = Math.ceil(Date.now() / 1000);
    await sleep(until * 1000 - Date.now() + 20);

    const started = await stack.api<Recovery>(`/api/v1/targets/${target}/recover`, {
      key: ws.apiKey,
      body: { since, until, statuses: ['DELIVERED'] },
    });
    expect(started.status).toBe(202);
    expect(started.body.matched).toBe(60);
    const get = async () =>
      (await stack.api<Recovery>(`/api/v1/recoveries/${started.body.id}`, { key: ws.apiKey })).body;
    await pollUntil('some replays', async () => ((await get()).replayed >= 10 ? true : undefined));
    await setBillingStatus(stack.db, ws.orgId, 'suspended');

    const stopped = await pollUntil('the recovery to stop', async () => {
      const r = await get();
      return r.state === 'running' ? undefined : r;
    });
    expect(stopped.state).toBe('failed');
    expect(stopped.failure_reason).toMatch(/billing became pending or suspended/);
    expect(stopped.replayed).toBeLessThan(60);
    const copies = async () =>
      (await stack.db.selectFrom('events').select('id').where('recovery_id', '=', started.body.id).execute())
        .length;
    expect(await copies()).toBe(stopped.replayed);
    await sleep(1_500);
    expect(await copies()).toBe(stopped.replayed);
    expect((await get()).replayed).toBe(stopped.replayed);

    // Billing active again: a new recovery over the same range takes only the rest.
    await setBillingStatus(stack.db, ws.orgId, 'active');
    const rest = await stack.api<Recovery>(`/api/v1/targets/${target}/recover`, {
      key: ws.apiKey,
      body: { since, until, statuses: ['DELIVERED'] },
    });
    expect(rest.body.matched).toBe(60 - stopped.replayed);
    const restDone = await pollUntil('the second recovery to complete', async () => {
      const r = (await stack.api<Recovery>(`/api/v1/recoveries/${rest.body.id}`, { key: ws.apiKey })).body;
      return r.state === 'completed' ? r : undefined;
    });
    expect(restDone.replayed).toBe(60 - stopped.replayed);
    const perSource = await sql<{ n: number }>`select count(*)::int as n from events
      where source_event_id = any(${originals}::text[]) group by source_event_id`.execute(stack.db);
    expect(perSource.rows.map((r) => r.n)).toEqual(originals.map(() => 1));
  }, 90_000);
});
