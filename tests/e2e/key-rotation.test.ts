// Proves the encryption-key rotation of the runbook (infra/README.md) end to end: secrets sealed under
// the old key keep working while both keys are configured, `admin reseal-secrets` moves every sealed
// column (signing, previous signing, inbound secrets, a2a tokens; deleted targets too) under the new
// key, a second run finds nothing to do, and once the old key is dropped the services still sign
// deliveries (checked with the official standardwebhooks package) and verify inbound signatures.
// The command refuses, with exit code 1, to call a rotation done while a value it cannot open remains.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { signInbound } from '@evds/ingest-core';
import { createSecretBox } from '@evds/secrets';
import {
  client,
  createTestCa,
  seedWorkspace,
  startReceiver,
  startStack,
  type Receiver,
  type ServiceName,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import { Webhook } from 'standardwebhooks';
import { createWebhookTarget, waitForStatus } from './helpers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const key = (kid: string) => `${kid}:${randomBytes(32).toString('base64')}`;
const oldKey = key('old');
const newKey = key('new');

let stack: Stack;
let receiver: Receiver;
let ws: TestWorkspace;

beforeAll(async () => {
  const ca = await createTestCa();
  receiver = await startReceiver(ca.server);
  stack = await startStack({ caFile: ca.caFile, env: { ENCRYPTION_KEYS: oldKey } });
  ws = await seedWorkspace(stack.db);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

/** Restarts every service of the stack with another ENCRYPTION_KEYS (a rolling deploy, in short). */
async function redeploy(encryptionKeys: string): Promise<void> {
  stack.env.ENCRYPTION_KEYS = encryptionKeys;
  for (const name of ['api', 'ingest', 'delivery-worker'] as ServiceName[]) {
    await stack.processes.get(name)?.kill('SIGTERM');
    await stack.start(name);
  }
  // New processes, new ephemeral ports.
  stack.api = client(stack.processes.get('api')?.url ?? '');
  stack.ingest = client(stack.processes.get('ingest')?.url ?? '');
}

const admin = (encryptionKeys: string, ...args: string[]) =>
  spawnSync(process.execPath, ['services/api/src/admin.ts', 'reseal-secrets', ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: stack.env.DATABASE_URL,
      ENCRYPTION_KEYS: encryptionKeys,
      LOG_LEVEL: 'silent',
    },
    encoding: 'utf8',
  });

const sealedValues = async () =>
  (
    await stack.db
      .selectFrom('targets')
      .select(['signing_secret', 'previous_signing_secret', 'inbound_secret', 'a2a_auth_token'])
      .execute()
  ).flatMap((r) => Object.values(r).filter((v): v is string => v !== null));

it('re-seals every stored secret under the new key, after which the old key can be dropped', async () => {
  // Sealed under the old key: a rotated signing secret (current and previous), an inbound secret...
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/rotated`);
  const rotated = await stack.api<{ secret: string }>(`/api/v1/targets/${target.id}/signing-secret/rotate`, {
    method: 'POST',
    key: ws.apiKey,
  });
  expect(rotated.status).toBe(200);
  const inbound = await stack.api<{ endpoint: { inbound_secret: string } }>(
    `/api/v1/endpoints/${target.id}`,
    {
      method: 'PATCH',
      key: ws.apiKey,
      body: { verify_inbound_signatures: true },
    },
  );
  const inboundSecret = inbound.body.endpoint.inbound_secret;
  // ...and an a2a bearer token on a deleted target (a2a targets need a live agent card to be created).
  const gone = await createWebhookTarget(stack, ws, `${receiver.url}/gone`);
  await stack.db
    .updateTable('targets')
    .set({
      a2a_auth_token: createSecretBox(oldKey).seal('agent-token', { id: gone.id, column: 'a2a_auth_token' }),
    })
    .where('id', '=', gone.id)
    .execute();
  await stack.api(`/api/v1/targets/${gone.id}`, { method: 'DELETE', key: ws.apiKey });
  expect(await sealedValues()).toHaveLength(5);
  expect((await sealedValues()).every((v) => v.startsWith('v2.old.'))).toBe(true);

  // Step 1-2: every replica gets the new key first, the old one still listed.
  await redeploy(`${newKey},${oldKey}`);
  const dry = admin(`${newKey},${oldKey}`, '--dry-run', '--json');
  expect(dry.status).toBe(0);
  expect(JSON.parse(dry.stdout)).toMatchObject({ scanned: 5, resealed: 5, unreadable: 0 });
  expect((await sealedValues()).every((v) => v.startsWith('v2.old.'))).toBe(true);

  // Step 3: re-seal; a second run has nothing left to do.
  const run = admin(`${newKey},${oldKey}`, '--json');
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(JSON.parse(run.stdout)).toEqual({
    scanned: 5,
    resealed: 5,
    unbound: 0,
    skipped: 0,
    unreadable: 0,
    currentKeyId: 'new',
  });
  expect((await sealedValues()).every((v) => v.startsWith('v2.new.'))).toBe(true);
  expect(JSON.parse(admin(`${newKey},${oldKey}`, '--json').stdout)).toMatchObject({ resealed: 0 });

  // Step 4: the old key is dropped; signing and inbound verification still work.
  await redeploy(newKey);
  const body = '{"after":"rotation"}';
  const ts = Math.floor(Date.now() / 1000);
  const accepted = await stack.ingest<{ id: string }>(`/e/${target.id}`, {
    key: ws.apiKey,
    body,
    headers: {
      'x-service-timestamp': String(ts),
      'x-service-signature': signInbound(inboundSecret, Buffer.from(body), ts),
    },
  });
  expect(accepted.status).toBe(202);
  await waitForStatus(stack, ws, accepted.body.id, 'DELIVERED');
  const got = receiver.received.find((r) => r.headers['webhook-id'] === accepted.body.id);
  // Both secrets of the rotation still sign: the new one and the previous (the one created first).
  for (const secret of [rotated.body.secret, target.secret])
    expect(new Webhook(secret).verify(got?.body.toString() ?? '', got?.headers ?? {})).toEqual({
      after: 'rotation',
    });
});

it('exits 1 while a value is sealed under a key that ENCRYPTION_KEYS no longer lists', () => {
  const r = admin(key('other'), '--json');
  expect(r.status).toBe(1);
  expect(JSON.parse(r.stdout)).toMatchObject({ resealed: 0, unreadable: 5 });
  expect(r.stderr).toMatch(/add those keys back/);
  const bad = admin('not-a-key');
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/ENCRYPTION_KEYS/);
});
