// Proves `evds listen` receives and verifies a real delivery: the receiver's certificate comes from a
// local CA made by ensureLocalCa in --tls-dir (as ./scripts/start.sh makes its own), the stack's
// delivery worker trusts that CA (NODE_EXTRA_CA_CERTS) and nothing else about TLS is relaxed. A webhook
// target points at the listener; with the target's secret in --secret, a sent event arrives and is
// printed with its method, path, webhook-id (the event id), event type and body byte for byte, marked
// verified; the event ends DELIVERED (listen answered 204). Listening again with another secret, the
// next delivery is printed as NOT verified (bad_signature). SIGINT stops the listener with exit 0.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unusedPort } from '@evds/localenv';
import { ensureLocalCa } from '@evds/localenv/inbox';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { cliEnv, eventually, runJson, startCli, type CliEnv, type RunningCli } from './kit.ts';

let stack: Stack;
let ws: TestWorkspace;
let env: CliEnv;
let tlsDir: string;
let port: number;
let target: { id: string; secret: string };

beforeAll(async () => {
  tlsDir = mkdtempSync(join(tmpdir(), 'evds-listen-ca-'));
  const ca = await ensureLocalCa(tlsDir);
  stack = await startStack({ caFile: ca.caFile });
  ws = await seedWorkspace(stack.db);
  env = cliEnv(stack, ws);
  port = await unusedPort();
  const created = await runJson<{ target: { id: string; secret: string } }>(
    [
      'targets',
      'create',
      '--kind',
      'webhook',
      '--name',
      'dev',
      '--url',
      `https://127.0.0.1:${port}/hooks/dev`,
    ],
    env,
  );
  target = created.target;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

/** A listener on the target's port; it needs no API key. */
async function listen(secret: string, json: boolean): Promise<RunningCli> {
  const args = ['listen', '--port', String(port), '--tls-dir', tlsDir, '--secret', secret];
  const cli = startCli(json ? [...args, '--json'] : args, { PATH: process.env.PATH ?? '' });
  await cli.waitFor(json ? /"type":"listening"/ : /^listening on https:\/\/127\.0\.0\.1:/);
  return cli;
}

const delivered = (id: string) =>
  eventually(`event ${id} DELIVERED`, async () => {
    const e = await runJson<{ status: string }>(['events', 'get', id], env);
    return e.status === 'DELIVERED' ? e : undefined;
  });

describe('evds listen', () => {
  it("verifies a real delivery with the target's secret", async () => {
    const listener = await listen(target.secret, true);
    try {
      const body = '{"order": 42, "note": "caf\u00e9"}';
      const sent = await runJson<{ id: string }>(['send', target.id, '--type', 'order.created'], env, {
        stdin: body,
      });
      await listener.waitFor(new RegExp(`"webhook_id":"${sent.id}"`));
      expect(listener.records()[1]).toEqual({
        type: 'delivery',
        method: 'POST',
        path: '/hooks/dev',
        webhook_id: sent.id,
        event_type: 'order.created',
        verified: true,
        reason: null,
        body,
      });
      await delivered(sent.id);
      expect(await listener.stop('SIGINT')).toBe(0);
    } finally {
      await listener.stop('SIGKILL');
    }
  });

  it('reports a delivery signed with another secret as not verified', async () => {
    const wrong = `whsec_${randomBytes(32).toString('base64')}`;
    const listener = await listen(wrong, false);
    try {
      const sent = await runJson<{ id: string }>(['send', target.id], env, { stdin: '{"order": 43}' });
      const line = await listener.waitFor(new RegExp(`webhook-id ${sent.id}`));
      expect(line).toMatch(
        /^POST \/hooks\/dev {2}webhook-id \S+ {2}type - {2}signature NOT verified \(bad_signature: /,
      );
      expect(listener.stdout()).toContain('\n{"order": 43}\n');
      expect(await listener.stop('SIGINT')).toBe(0);
    } finally {
      await listener.stop('SIGKILL');
    }
  });
});
