// Proves `evds mailbox consume` as a real child process against the real API and ingest service, with
// a 2-second lease: for each message it runs the given command with the payload (JSON) on stdin and
// EVDS_MESSAGE_ID in its environment; a command that exits 0 gets its message ACKNOWLEDGED (read back
// from Postgres) and --max N stops after N messages, leaving the rest UNREAD; a command that fails
// leaves its message unacknowledged (never ACKNOWLEDGED; UNREAD again once the lease lapses) and the
// run exits 1 because --max was given. Without --max it keeps polling, and SIGINT lets the command in
// flight finish (its message acked) and exits 0. A command that cannot be started is a usage error.
// `evds mailbox list` shows the states.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { cliEnv, eventually, runCli, runJson, startCli, type CliEnv } from './kit.ts';

const LEASE_SECONDS = 2;

let stack: Stack;
let ws: TestWorkspace;
let env: CliEnv;

beforeAll(async () => {
  stack = await startStack({
    services: ['api', 'ingest'],
    env: { MAILBOX_LEASE_SECONDS: String(LEASE_SECONDS) },
  });
  ws = await seedWorkspace(stack.db);
  env = cliEnv(stack, ws);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

/** A fresh mailbox holding `n` messages ({n: 1}, {n: 2}...), sent in order. */
async function mailboxWith(n: number): Promise<{ id: string; messages: string[] }> {
  const { target } = await runJson<{ target: { id: string } }>(
    ['targets', 'create', '--kind', 'mailbox', '--name', `mb-${Date.now()}`],
    env,
  );
  const messages: string[] = [];
  for (let i = 1; i <= n; i++)
    messages.push((await runJson<{ id: string }>(['send', target.id], env, { stdin: `{"n": ${i}}` })).id);
  return { id: target.id, messages };
}

const rowsOf = (mailbox: string) =>
  stack.db
    .selectFrom('mailbox_messages')
    .select(['id', 'state', 'acknowledged_at'])
    .where('mailbox_id', '=', mailbox)
    .orderBy('created_at')
    .execute();

const listed = async (mailbox: string) =>
  (await runJson<{ messages: { id: string; state: string }[] }>(['mailbox', 'list', mailbox], env)).messages;

// Copies stdin to <dir>/<EVDS_MESSAGE_ID>.json, so the test sees what the command was given.
const saveTo = (dir: string) => [
  'node',
  '-e',
  `require('fs').writeFileSync(require('path').join(${JSON.stringify(dir)}, process.env.EVDS_MESSAGE_ID + '.json'), require('fs').readFileSync(0))`,
];

describe('evds mailbox consume', () => {
  it('acks each message whose command exits 0, and --max stops after N', async () => {
    const box = await mailboxWith(3);
    const dir = mkdtempSync(join(tmpdir(), 'evds-consume-'));
    const r = await runCli(['mailbox', 'consume', box.id, '--max', '2', '--json', '--', ...saveTo(dir)], env);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.at(-1)).toEqual({ type: 'summary', acked: 2, failed: 0, lost: 0 });

    const rows = await rowsOf(box.id);
    expect(rows.map((m) => m.state)).toEqual(['ACKNOWLEDGED', 'ACKNOWLEDGED', 'UNREAD']);
    // Oldest first, each with its own payload byte for byte and its id in the environment.
    expect(readFileSync(join(dir, `${box.messages[0]}.json`), 'utf8')).toBe('{"n":1}');
    expect(readFileSync(join(dir, `${box.messages[1]}.json`), 'utf8')).toBe('{"n":2}');
    const table = await runCli(['mailbox', 'list', box.id, '--status', 'UNREAD'], env);
    expect(table.stdout).toMatch(new RegExp(`^${box.messages[2]}\\s+UNREAD`, 'm'));
  });

  it('leaves the message of a failing command unacknowledged (exit 1 with --max)', async () => {
    const box = await mailboxWith(1);
    const r = await runCli(
      ['mailbox', 'consume', box.id, '--max', '1', '--', 'sh', '-c', 'cat >/dev/null; exit 3'],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`failed  ${box.messages[0]}: command exited 3 (left to lapse)`);
    expect(r.stdout).toContain('done: 0 acked, 1 failed, 0 lost');

    const [row] = await rowsOf(box.id);
    expect(row).toMatchObject({ state: 'CLAIMED', acknowledged_at: null });
    // Once the lease lapses the message is offered again.
    await eventually('the message UNREAD again', async () =>
      (await listed(box.id))[0]?.state === 'UNREAD' ? true : undefined,
    );
    expect((await rowsOf(box.id))[0]!.acknowledged_at).toBeNull();
  });

  it('without --max keeps polling; SIGINT lets the command in flight finish and exits 0', async () => {
    const box = await mailboxWith(0);
    const consumer = startCli(
      [
        'mailbox',
        'consume',
        box.id,
        '--json',
        '--poll-interval',
        '100',
        '--',
        'sh',
        '-c',
        'cat >/dev/null; sleep 1.5',
      ],
      env,
    );
    try {
      const [sent] = await Promise.all([
        runJson<{ id: string }>(['send', box.id], env, { stdin: '{"late": true}' }),
        // Nothing to do yet: the consumer waits rather than exiting.
        new Promise((res) => setTimeout(res, 500)),
      ]);
      await consumer.waitFor(new RegExp(`"type":"claimed","message_id":"${sent.id}"`));
      expect(await consumer.stop('SIGINT')).toBe(0);
      expect(consumer.records().at(-1)).toEqual({ type: 'summary', acked: 1, failed: 0, lost: 0 });
      expect((await rowsOf(box.id)).map((m) => m.state)).toEqual(['ACKNOWLEDGED']);
    } finally {
      await consumer.stop('SIGKILL');
    }
  });

  it('a command that cannot be started is a clear error', async () => {
    const box = await mailboxWith(1);
    const r = await runCli(['mailbox', 'consume', box.id, '--', 'no-such-command-evds'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot_run_command: cannot run no-such-command-evds: .*ENOENT/m);
    expect((await rowsOf(box.id)).map((m) => m.acknowledged_at)).toEqual([null]);
  });
});
