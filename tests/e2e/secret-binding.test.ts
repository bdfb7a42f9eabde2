// Proves that sealed secrets are bound to their row and column, end to end with every service as its
// own process: a signing secret envelope copied with SQL from one organization's endpoint onto
// another's signs nothing (each delivery attempt fails with the reason recorded, the receiver gets no
// request, the worker keeps delivering for everyone else, `reseal-secrets` reports the value and exits
// 1, and rotating the secret recovers); a signing secret moved into the inbound column does not let its
// holder (the receiver) sign inbound events; and an envelope in the old unbound format, written here
// with the test's own code, still delivers after the upgrade and is migrated to the bound format by
// `reseal-secrets` (counted by --dry-run first), after which it still delivers.
import { spawnSync } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { signInbound } from '@evds/ingest-core';
import {
  seedWorkspace,
  startStackWithReceiver,
  type Receiver,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import { Webhook } from 'standardwebhooks';
import { waitForStatus } from './helpers.ts';

type SealedColumn = 'signing_secret' | 'inbound_secret';
type Delivered = { body: string; headers: Record<string, string> };
/** Verified with the official package: throws unless `secret` signed the delivery. */
const verify = (secret: string, got: Delivered) => new Webhook(secret).verify(got.body, got.headers);

const root = fileURLToPath(new URL('../..', import.meta.url));
let stack: Stack;
let receiver: Receiver;
let orgA: TestWorkspace;
let orgB: TestWorkspace;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({}));
  orgA = await seedWorkspace(stack.db);
  orgB = await seedWorkspace(stack.db);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

async function newEndpoint(ws: TestWorkspace, path: string): Promise<{ id: string; secret: string }> {
  const r = await stack.api<{ id: string; secret: string }>('/api/v1/endpoints', {
    key: ws.apiKey,
    body: { name: path, url: `${receiver.url}${path}` },
  });
  expect(r.status).toBe(200);
  return r.body;
}

const stored = (id: string, column: SealedColumn) =>
  stack.db
    .selectFrom('targets')
    .select(column)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
    .then((row) => row[column] ?? '');

const overwrite = (id: string, column: SealedColumn, envelope: string) =>
  stack.db
    .updateTable('targets')
    .set({ [column]: envelope })
    .where('id', '=', id)
    .execute();

async function send(ws: TestWorkspace, id: string, headers: Record<string, string> = {}, body = '{"n":1}') {
  return stack.ingest<{ id: string; code?: string; error?: string }>(`/e/${id}`, {
    key: ws.apiKey,
    body,
    headers,
  });
}

/** Delivers one event and returns the request the receiver got for it. */
async function deliver(ws: TestWorkspace, id: string): Promise<Delivered> {
  const r = await send(ws, id);
  expect(r.status).toBe(202);
  await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
  const got = receiver.received.find((x) => x.headers['webhook-id'] === r.body.id);
  if (!got) throw new Error(`no request received for ${r.body.id}`);
  return { body: got.body.toString(), headers: got.headers };
}

const reseal = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['services/api/src/admin.ts', 'reseal-secrets', '--json', ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: stack.env.DATABASE_URL,
      ENCRYPTION_KEYS: stack.env.ENCRYPTION_KEYS,
      LOG_LEVEL: 'silent',
    },
    encoding: 'utf8',
  });
  return {
    status: r.status,
    stderr: r.stderr,
    report: JSON.parse(r.stdout || '{}') as Record<string, unknown>,
  };
};

/** An envelope in the format written before binding: "v1.<kid>.<iv>.<tag>.<ct>", only the header as AAD. */
function sealUnbound(plain: string): string {
  const [kid = '', material = ''] = (stack.env.ENCRYPTION_KEYS ?? '').split(':');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(material, 'base64'), iv);
  cipher.setAAD(Buffer.from(`v1.${kid}`));
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', kid, ...[iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url'))].join('.');
}

it('migrates an old-format envelope with reseal-secrets, delivering signed before and after', async () => {
  const c = await newEndpoint(orgA, '/c');
  await overwrite(c.id, 'signing_secret', sealUnbound(c.secret));
  // Right after the upgrade, before the migration, the old format still opens.
  expect(verify(c.secret, await deliver(orgA, c.id))).toEqual({ n: 1 });

  const dry = reseal('--dry-run');
  expect(dry.status).toBe(0);
  expect(dry.report).toMatchObject({ unbound: 1, resealed: 1, unreadable: 0, skipped: 0 });
  expect(await stored(c.id, 'signing_secret')).toMatch(/^v1\./);

  const run = reseal();
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.report).toMatchObject({ unbound: 1, resealed: 1, unreadable: 0, skipped: 0 });
  expect(await stored(c.id, 'signing_secret')).toMatch(/^v2\.test1\./);
  expect(reseal().report).toMatchObject({ unbound: 0, resealed: 0, unreadable: 0 });

  expect(verify(c.secret, await deliver(orgA, c.id))).toEqual({ n: 1 });
});

it("signs nothing with a signing secret copied from another organization's endpoint", async () => {
  const a = await newEndpoint(orgA, '/a');
  const b = await newEndpoint(orgB, '/b');
  await overwrite(b.id, 'signing_secret', await stored(a.id, 'signing_secret'));

  const r = await send(orgB, b.id);
  expect(r.status).toBe(202);
  const failed = await waitForStatus(stack, orgB, r.body.id, 'EXPIRED');
  expect(failed.delivery_attempts.length).toBeGreaterThan(0);
  for (const attempt of failed.delivery_attempts) {
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(
      /^not sent: the stored signing secret cannot be used \(.*failed authentication/,
    );
    expect(attempt.error).toMatch(/rotate the signing secret and drop the previous one$/);
  }
  expect(receiver.received.filter((x) => x.path === '/b')).toEqual([]);
  // The worker is unharmed: A's own deliveries go on, signed with A's secret.
  expect(verify(a.secret, await deliver(orgA, a.id))).toEqual({ n: 1 });

  // The operator's command finds the misplaced value and refuses to call the secrets healthy.
  const check = reseal('--dry-run');
  expect(check.status).toBe(1);
  expect(check.report).toMatchObject({ unreadable: 1, resealed: 0 });
  expect(check.stderr).toMatch(/copied from another target or column/);

  // Recovery: B rotates its secret and drops the previous (the copied) one.
  const rotated = await stack.api<{ secret: string }>(`/api/v1/targets/${b.id}/signing-secret/rotate`, {
    method: 'POST',
    key: orgB.apiKey,
  });
  expect(rotated.status).toBe(200);
  const dropped = await stack.api(`/api/v1/targets/${b.id}/signing-secret/previous`, {
    method: 'DELETE',
    key: orgB.apiKey,
  });
  expect(dropped.status).toBe(200);
  const got = await deliver(orgB, b.id);
  expect(verify(rotated.body.secret, got)).toEqual({ n: 1 });
  expect(() => verify(a.secret, got)).toThrow();
  expect(reseal('--dry-run')).toMatchObject({ status: 0, report: { unreadable: 0 } });
});

it('does not let a signing secret moved into the inbound column verify inbound signatures', async () => {
  const d = await newEndpoint(orgA, '/d');
  const on = await stack.api<{ endpoint: { inbound_secret: string } }>(`/api/v1/endpoints/${d.id}`, {
    method: 'PATCH',
    key: orgA.apiKey,
    body: { verify_inbound_signatures: true },
  });
  expect(on.status).toBe(200);
  // The receiver knows the signing secret; moved into the inbound column it must not sign producers' items.
  await overwrite(d.id, 'inbound_secret', await stored(d.id, 'signing_secret'));
  const body = '{"forged":true}';
  const signed = (secret: string) => {
    const ts = Math.floor(Date.now() / 1000);
    return {
      'x-service-timestamp': String(ts),
      'x-service-signature': signInbound(secret, Buffer.from(body), ts),
    };
  };
  const forged = await send(orgA, d.id, signed(d.secret), body);
  expect(forged.status).toBe(403);
  expect(forged.body.code).toBe('signature_invalid');
  expect(forged.body.error).toMatch(/inbound secret stored for this target cannot be used/);

  // Recovery: turning verification off and on issues a new inbound secret, bound to this endpoint.
  await stack.api(`/api/v1/endpoints/${d.id}`, {
    method: 'PATCH',
    key: orgA.apiKey,
    body: { verify_inbound_signatures: false },
  });
  const again = await stack.api<{ endpoint: { inbound_secret: string } }>(`/api/v1/endpoints/${d.id}`, {
    method: 'PATCH',
    key: orgA.apiKey,
    body: { verify_inbound_signatures: true },
  });
  expect((await send(orgA, d.id, signed(again.body.endpoint.inbound_secret), body)).status).toBe(202);
});
