// Proves the operator's side: the admin command line provisions a working workspace (printing its key
// once) and sets billing states; every service stops cleanly on SIGTERM, and a delivery worker
// finishes the deliveries it has in flight before it exits (none is cut off and sent again).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, type Receiver, type Stack, startStackWithReceiver } from '@evds/testkit';
import { createWebhookTarget } from './helpers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  ({ stack, receiver } = await startStackWithReceiver({
    behaviour: () => ({ status: 200, delayMs: 400 }),
    env: { INGEST_RATE_LIMIT: '1000' },
  }));
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const admin = (...args: string[]) =>
  spawnSync(process.execPath, ['services/api/src/admin.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, DATABASE_URL: stack.env.DATABASE_URL, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });

it('create-workspace provisions an exempt org, a user who can log in and a working API key', async () => {
  const r = admin(
    'create-workspace',
    '--org',
    'Acme Corp',
    '--email',
    'Ada@Acme.test',
    '--password',
    'correct horse',
    '--json',
  );
  expect(r.status).toBe(0);
  const out = JSON.parse(r.stdout) as { org_id: string; slug: string; email: string; api_key: string };
  expect(out).toMatchObject({
    slug: 'acme-corp',
    email: 'ada@acme.test',
    api_key: expect.stringMatching(/^evds_sk_[0-9a-f]{64}$/),
  });
  const org = await stack.api<{ org: { id: string; billing_status: string } }>('/api/v1/orgs', {
    key: out.api_key,
  });
  expect(org.body.org).toMatchObject({ id: out.org_id, billing_status: 'exempt' });
  const login = await stack.api('/api/v1/auth/login', {
    body: { email: 'ada@acme.test', password: 'correct horse' },
  });
  expect(login.status).toBe(200);

  const set = admin('set-billing', '--org', 'acme-corp', '--status', 'suspended');
  expect(set.status).toBe(0);
  const after = await stack.api<{ org: { billing_status: string } }>('/api/v1/orgs', { key: out.api_key });
  expect(after.body.org.billing_status).toBe('suspended');
});

it.each([
  [['create-workspace', '--org', 'No Email']],
  [['set-billing', '--org', 'nope', '--status', 'suspended']],
  [['set-billing', '--org', 'acme-corp', '--status', 'bankrupt']],
  [['frobnicate']],
])('refuses %j with a message and exit code 1', (args) => {
  const r = admin(...args);
  expect(r.status).toBe(1);
  expect(r.stderr.length).toBeGreaterThan(0);
});

it('a delivery worker stopped with SIGTERM finishes its in-flight deliveries first', async () => {
  const ws = await seedWorkspace(stack.db);
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/slow`);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++)
    ids.push(
      (await stack.ingest<{ id: string }>(`/t/${target.id}`, { key: ws.apiKey, body: { i } })).body.id,
    );
  await receiver.waitFor(1);
  const worker = stack.processes.get('delivery-worker');
  const code = await worker?.kill('SIGTERM');
  expect(code).toBe(0);
  expect(worker?.logs.some((l) => l.msg === 'stopped')).toBe(true);
  // Whatever the receiver got before the exit was recorded: no attempt was cut off mid-flight.
  const delivered = await stack.db
    .selectFrom('events')
    .select('id')
    .where('id', 'in', ids)
    .where('status', '=', 'DELIVERED')
    .execute();
  const received = new Set(
    receiver.received.map((r) => r.headers['webhook-id']).filter((id) => id && ids.includes(id)),
  );
  expect(delivered.length).toBe(received.size);
  expect(delivered.length).toBeGreaterThan(0);
  // A new worker delivers the rest.
  await stack.start('delivery-worker');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await stack.db
      .selectFrom('events')
      .select('id')
      .where('id', 'in', ids)
      .where('status', '=', 'DELIVERED')
      .execute();
    if (rows.length === ids.length) break;
    if (Date.now() > deadline) throw new Error(`${rows.length} of ${ids.length} delivered`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

it.each(['api', 'ingest'] as const)('%s exits 0 on SIGTERM', async (name) => {
  const p = stack.processes.get(name);
  expect(await p?.kill('SIGTERM')).toBe(0);
  expect(p?.logs.some((l) => l.msg === 'stopped')).toBe(true);
  await stack.start(name);
});
