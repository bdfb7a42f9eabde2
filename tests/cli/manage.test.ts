// Proves the evds command line's management and producer commands as a user runs them: a real
// `node packages/cli/src/bin.ts` process per command, configured only by EVDS_URL, EVDS_INGEST_URL and
// EVDS_API_KEY, against the real services with an HTTPS receiver. `send` takes the payload from a
// file, from stdin (`-` or no argument) and passes --type, --correlation-id and --idempotency-key
// (which the event then shows); targets are created, listed, read, changed and deleted; events are
// listed with filters and read with their attempts; a delivered event is replayed; keys are created,
// listed and deleted. Every command prints one JSON document with --json and readable text without.
// Bad input fails clearly: an unknown command or option and a missing key exit 2 with a message, an
// unknown id exits 1 with `error: not_found: ... (HTTP 404)` (or the error object with --json), and
// no output carries a stack trace.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  seedWorkspace,
  startStackWithReceiver,
  type Receiver,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import { cliEnv, eventually, runCli, runJson, type CliEnv } from './kit.ts';

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;
let env: CliEnv;
let webhook: string;

interface TargetAnswer {
  target: { id: string; kind: string; name: string; enabled: boolean; secret?: string };
}
interface EventAnswer {
  id: string;
  status: string;
  event_type: string | null;
  correlation_id: string | null;
  payload: unknown;
  source_event_id: string | null;
  delivery_attempts: unknown[];
}

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver());
  ws = await seedWorkspace(stack.db);
  env = cliEnv(stack, ws);
  const created = await runJson<TargetAnswer>(
    ['targets', 'create', '--kind', 'webhook', '--name', 'orders', '--url', `${receiver.url}/hooks`],
    env,
  );
  webhook = created.target.id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const delivered = (id: string) =>
  eventually(`event ${id} DELIVERED`, async () => {
    const e = await runJson<EventAnswer>(['events', 'get', id], env);
    return e.status === 'DELIVERED' ? e : undefined;
  });

describe('evds targets', () => {
  it('creates (the webhook secret once), lists, reads, updates and deletes targets', async () => {
    const hook = await runJson<TargetAnswer>(['targets', 'get', webhook], env);
    expect(hook.target).toMatchObject({ id: webhook, kind: 'webhook', name: 'orders', enabled: true });
    expect(hook.target.secret).toBeUndefined();

    const mailbox = await runCli(['targets', 'create', '--kind', 'mailbox', '--name', 'jobs'], env);
    expect(mailbox.code).toBe(0);
    const mailboxId = /^id\s+([0-9a-f]{32})$/m.exec(mailbox.stdout)?.[1];
    expect(mailbox.stdout).toMatch(/^kind\s+mailbox$/m);

    const list = await runJson<{ targets: { id: string }[] }>(['targets', 'list'], env);
    expect(list.targets.map((t) => t.id).sort()).toEqual([webhook, mailboxId].sort());
    const table = await runCli(['targets', 'list'], env);
    expect(table.stdout).toMatch(/^ID\s+KIND\s+NAME/);
    expect(table.stdout).toContain('jobs');

    const off = await runJson<TargetAnswer>(['targets', 'update', mailboxId!, '--enabled', 'false'], env);
    expect(off.target.enabled).toBe(false);
    const nothing = await runCli(['targets', 'update', mailboxId!], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');

    expect(await runJson(['targets', 'delete', mailboxId!], env)).toEqual({ deleted: true });
    const gone = await runCli(['targets', 'get', mailboxId!], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error: not_found: .+ \(HTTP 404\)$/m);
  });

  it('creates a webhook target whose answer carries its secret, once', async () => {
    const r = await runCli(
      ['targets', 'create', '--kind', 'webhook', '--name', 'x', '--url', receiver.url],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^secret\s+whsec_\S+\s+\(shown once/m);
    const missingUrl = await runCli(['targets', 'create', '--kind', 'webhook', '--name', 'y'], env);
    expect(missingUrl.code).toBe(2);
    expect(missingUrl.stderr).toContain('--url');
  });
});

describe('evds send, events and replay', () => {
  it('sends from a file, from stdin and with headers; events list and get show them; replay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evds-cli-'));
    const file = join(dir, 'order.json');
    writeFileSync(file, '{"order": 1}');
    const fromFile = await runJson<{ id: string; status: string; kind: string }>(
      ['send', webhook, file, '--type', 'order.created', '--correlation-id', 'checkout-1'],
      env,
    );
    expect(fromFile).toMatchObject({ status: 'QUEUED', kind: 'webhook', target_id: webhook });

    const dash = await runCli(['send', webhook, '-'], env, { stdin: '{"order": 2}' });
    expect(dash.code).toBe(0);
    expect(dash.stdout).toMatch(/^accepted [0-9a-f]{32} \(QUEUED, webhook target\)$/m);
    const bare = await runJson<{ id: string }>(['send', webhook], env, { stdin: '{"order": 3}' });

    const keyed = ['send', webhook, '--idempotency-key', 'order-4'];
    const first = await runJson<{ id: string }>(keyed, env, { stdin: '{"order": 4}' });
    const again = await runJson<{ id: string }>(keyed, env, { stdin: '{"order": 4}' });
    expect(again.id).toBe(first.id);

    const event = await delivered(fromFile.id);
    expect(event).toMatchObject({
      event_type: 'order.created',
      correlation_id: 'checkout-1',
      payload: { order: 1 },
    });
    expect(event.delivery_attempts).toHaveLength(1);
    expect((await runJson<EventAnswer>(['events', 'get', bare.id], env)).payload).toEqual({ order: 3 });

    const filtered = await runJson<{ events: { id: string }[]; total: number }>(
      ['events', 'list', '--correlation-id', 'checkout-1', '--target', webhook],
      env,
    );
    expect(filtered.events.map((e) => e.id)).toEqual([fromFile.id]);
    const page = await runJson<{ events: unknown[]; next_cursor: string | null }>(
      ['events', 'list', '--limit', '2'],
      env,
    );
    expect(page.events).toHaveLength(2);
    expect(page.next_cursor).not.toBeNull();
    const human = await runCli(['events', 'list', '--type', 'order.created'], env);
    expect(human.stdout).toMatch(new RegExp(`^${fromFile.id}\\s+\\S+\\s+DELIVERED\\s+order\\.created`, 'm'));

    const replay = await runJson<{ id: string; source_event_id: string }>(['replay', fromFile.id], env);
    expect(replay.source_event_id).toBe(fromFile.id);
    expect((await delivered(replay.id)).source_event_id).toBe(fromFile.id);
    const shown = await runCli(['events', 'get', replay.id], env);
    expect(shown.stdout).toMatch(new RegExp(`^source_event_id\\s+${fromFile.id}$`, 'm'));
  });
});

describe('evds keys', () => {
  it('creates (the key once), lists and deletes keys', async () => {
    const created = await runJson<{ id: string; name: string; key: string }>(
      ['keys', 'create', 'second'],
      env,
    );
    expect(created.key).toMatch(/^evds_sk_[0-9a-f]{64}$/);
    const list = await runJson<{ keys: { id: string; prefix: string }[] }>(['keys', 'list'], env);
    expect(list.keys.find((k) => k.id === created.id)?.prefix).toBe(created.key.slice(0, 12));
    // The new key works on its own.
    expect(
      (await runJson<{ keys: unknown[] }>(['keys', 'list'], { ...env, EVDS_API_KEY: created.key })).keys,
    ).toHaveLength(list.keys.length);
    const human = await runCli(['keys', 'delete', created.id], env);
    expect(human.stdout.trim()).toBe(`deleted key ${created.id}`);
    const after = await runJson<{ keys: { id: string }[] }>(['keys', 'list'], env);
    expect(after.keys.map((k) => k.id)).not.toContain(created.id);
  });
});

describe('bad input', () => {
  it('an unknown command or option is a usage error (exit 2)', async () => {
    const unknown = await runCli(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const option = await runCli(['events', 'list', '--limit', 'lots'], env);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('--limit');
  });

  it('a missing EVDS_API_KEY says what to do (exit 2), before any request', async () => {
    const r = await runCli(['targets', 'list'], { EVDS_URL: env.EVDS_URL! });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: missing_api_key: EVDS_API_KEY is not set/);
  });

  it('an unknown id is the service error, as text or as JSON (exit 1)', async () => {
    const missing = '0'.repeat(32);
    const text = await runCli(['events', 'get', missing], env);
    expect(text.code).toBe(1);
    expect(text.stderr.trim()).toMatch(/^error: not_found: .+ \(HTTP 404\)$/);
    const json = await runCli(['replay', missing, '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'not_found', status: 404 });
    expect(json.stdout).toBe('');
  });

  it('a payload that is not JSON fails before any request; a wrong key is a 401', async () => {
    const r = await runCli(['send', webhook], env, { stdin: '{nope' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: invalid_json: /);
    const wrong = await runCli(['targets', 'list'], { ...env, EVDS_API_KEY: `evds_sk_${'0'.repeat(64)}` });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/\(HTTP 401\)$/m);
    for (const out of [r.stderr, wrong.stderr]) expect(out).not.toMatch(/\n\s+at /);
  });

  it('./scripts/evds runs the same command line from any directory', async () => {
    const script = fileURLToPath(new URL('../../scripts/evds', import.meta.url));
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve) =>
      execFile(
        script,
        ['targets', 'list', '--json'],
        { cwd: tmpdir(), env: { ...process.env, ...env } },
        (err, stdout) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout }),
      ),
    );
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { targets: { id: string }[] }).targets.map((t) => t.id)).toContain(
      webhook,
    );
  });
});
