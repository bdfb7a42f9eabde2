// Proves the commands that follow work over time, as real child processes against the real services
// with an HTTPS receiver: `evds events tail` shows a new event (and none that existed before it
// started) and then its move from QUEUED to DELIVERED, one JSON object per line, and stops by itself
// after --max-events settled events (exit 0); --for bounds it when nothing happens, and SIGINT stops it
// cleanly (exit 0). `evds recover` starts a recovery of a target's delivered events over a window and
// waits for it to finish, printing its counts (matched = replayed = the events sent), and the replays
// exist; --no-wait returns the running recovery at once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  seedWorkspace,
  startStackWithReceiver,
  type Receiver,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import { cliEnv, eventually, runCli, runJson, startCli, type CliEnv } from './kit.ts';

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;
let env: CliEnv;
let target: string;

beforeAll(async () => {
  // Every delivery takes a second, so tail sees each event QUEUED before it is DELIVERED.
  ({ stack, receiver } = await startStackWithReceiver({ behaviour: () => ({ status: 200, delayMs: 1000 }) }));
  ws = await seedWorkspace(stack.db);
  env = cliEnv(stack, ws);
  const created = await runJson<{ target: { id: string } }>(
    ['targets', 'create', '--kind', 'webhook', '--name', 'tail', '--url', `${receiver.url}/hooks`],
    env,
  );
  target = created.target.id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const send = (body: object) =>
  runJson<{ id: string }>(['send', target, '--type', 'order.created'], env, { stdin: JSON.stringify(body) });

const statusOf = async (id: string) => (await runJson<{ status: string }>(['events', 'get', id], env)).status;

interface Line {
  type: string;
  id: string;
  status?: string;
  from?: string;
  to?: string;
}

describe('evds events tail', () => {
  it('prints a new event and its DELIVERED outcome, then stops after --max-events', async () => {
    const before = await send({ old: true });
    const tail = startCli(
      [
        'events',
        'tail',
        '--target',
        target,
        '--interval',
        '150',
        '--max-events',
        '1',
        '--for',
        '40',
        '--json',
      ],
      env,
    );
    try {
      await tail.waitFor(/following new events/, 'stderr');
      const fresh = await send({ order: 1 });
      expect(await tail.exited).toBe(0);
      const lines = tail.records<Line>();
      expect(lines[0]).toMatchObject({
        type: 'event',
        id: fresh.id,
        status: 'QUEUED',
        event_type: 'order.created',
      });
      expect(lines.slice(1)).toEqual([{ type: 'status', id: fresh.id, from: 'QUEUED', to: 'DELIVERED' }]);
      expect(lines.map((l) => l.id)).not.toContain(before.id);
      expect(await statusOf(fresh.id)).toBe('DELIVERED');
      expect(tail.stderr()).toContain('stopped: 1 new events, 1 delivered, 0 failed');
    } finally {
      await tail.stop();
    }
  });

  it('prints readable lines, and stops on SIGINT (exit 0) or when --for runs out', async () => {
    const tail = startCli(['events', 'tail', '--target', target, '--interval', '150'], env);
    try {
      await tail.waitFor(/following new events/, 'stderr');
      const fresh = await send({ order: 2 });
      await tail.waitFor(new RegExp(`${fresh.id}\\s+QUEUED -> DELIVERED`));
      expect(tail.stdout()).toMatch(
        new RegExp(`^\\S+\\s+${fresh.id}\\s+QUEUED\\s+order\\.created\\s+target ${target}$`, 'm'),
      );
      expect(await tail.stop('SIGINT')).toBe(0);
    } finally {
      await tail.stop();
    }
    const started = Date.now();
    const idle = await runCli(['events', 'tail', '--for', '1', '--json'], env);
    expect(idle).toMatchObject({ code: 0, stdout: '' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('evds recover', () => {
  it("replays a window of a target's delivered events and waits for the counts", async () => {
    const since = Math.floor(Date.now() / 1000);
    const sent = await Promise.all([1, 2, 3].map((n) => send({ recover: n })));
    for (const e of sent)
      await eventually(`${e.id} DELIVERED`, async () =>
        (await statusOf(e.id)) === 'DELIVERED' ? true : undefined,
      );
    const idsBefore = new Set(
      (
        await runJson<{ events: { id: string }[] }>(
          ['events', 'list', '--target', target, '--limit', '100'],
          env,
        )
      ).events.map((e) => e.id),
    );

    const recovery = await runJson<{ state: string; matched: number; replayed: number; skipped: number }>(
      [
        'recover',
        target,
        '--since',
        new Date(since * 1000).toISOString(),
        '--status',
        'DELIVERED',
        '--interval',
        '200',
      ],
      env,
    );
    // Earlier tests' events are older than `since` and not matched.
    expect(recovery).toMatchObject({ state: 'completed', matched: 3, replayed: 3, skipped: 0 });
    const after = await runJson<{ events: { id: string; status: string }[] }>(
      ['events', 'list', '--target', target, '--limit', '100'],
      env,
    );
    const replays = after.events.filter((e) => !idsBefore.has(e.id));
    expect(replays).toHaveLength(3);

    const human = await runCli(['recover', target, '--since', String(since), '--status', 'FAILED'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^state\s+completed$/m);
    expect(human.stdout).toMatch(/^matched\s+0$/m);

    const noWait = await runJson<{ state: string; id: string }>(
      ['recover', target, '--since', String(since), '--status', 'DELIVERED', '--no-wait'],
      env,
    );
    expect(noWait.id).toMatch(/^[0-9a-f]{32}$/);
    const bad = await runCli(['recover', target, '--since', 'yesterday-ish'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since');
  });
});
