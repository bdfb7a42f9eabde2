// Proves that ingest's in-process caches of keys, targets and billing states never outlive a change:
// with two ingest replicas whose caches are warm, a deleted key, a disabled or deleted target and a
// billing suspension (set by the operator's command line) are all refused on the very next request to
// either replica.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  client,
  seedWorkspace,
  spawnService,
  startStack,
  type Client,
  type ServiceProcess,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';

const root = fileURLToPath(new URL('../..', import.meta.url));
let stack: Stack;
let second: ServiceProcess;
let replicas: Client[];
let ws: TestWorkspace;

beforeAll(async () => {
  stack = await startStack({ services: ['api', 'ingest'], env: { INGEST_RATE_LIMIT: '100000' } });
  second = await spawnService('ingest', stack.env);
  replicas = [stack.ingest, client(second.url)];
  ws = await seedWorkspace(stack.db);
});
afterAll(async () => {
  await second.kill();
  await stack.stop();
});

async function mailbox(): Promise<string> {
  const r = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key: ws.apiKey,
    body: { kind: 'mailbox', name: 'm' },
  });
  return r.body.target.id;
}

/** Sends one item to each replica with `key`, returning the two statuses. */
const both = (target: string, key: string) =>
  Promise.all(replicas.map(async (send) => (await send(`/t/${target}`, { key, body: { x: 1 } })).status));

it('a deleted key is refused by every replica on the very next request', async () => {
  const target = await mailbox();
  const created = await stack.api<{ id: string; key: string }>('/api/v1/keys', {
    key: ws.apiKey,
    body: { name: 'doomed' },
  });
  expect(await both(target, created.body.key)).toEqual([202, 202]);
  expect(
    (await stack.api(`/api/v1/keys/${created.body.id}`, { method: 'DELETE', key: ws.apiKey })).status,
  ).toBe(200);
  expect(await both(target, created.body.key)).toEqual([401, 401]);
});

it('a disabled target, then a deleted one, is refused by every replica on the very next request', async () => {
  const target = await mailbox();
  expect(await both(target, ws.apiKey)).toEqual([202, 202]);
  await stack.api(`/api/v1/targets/${target}`, { method: 'PATCH', key: ws.apiKey, body: { enabled: false } });
  expect(await both(target, ws.apiKey)).toEqual([409, 409]);
  await stack.api(`/api/v1/targets/${target}`, { method: 'PATCH', key: ws.apiKey, body: { enabled: true } });
  expect(await both(target, ws.apiKey)).toEqual([202, 202]);
  await stack.api(`/api/v1/targets/${target}`, { method: 'DELETE', key: ws.apiKey });
  expect(await both(target, ws.apiKey)).toEqual([404, 404]);
});

it('a suspension set by the operator is refused by every replica on the very next request', async () => {
  const target = await mailbox();
  expect(await both(target, ws.apiKey)).toEqual([202, 202]);
  const r = spawnSync(
    process.execPath,
    ['services/api/src/admin.ts', 'set-billing', '--org', ws.orgId, '--status', 'suspended'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: stack.env.DATABASE_URL,
        REDIS_URL: stack.env.REDIS_URL,
        REDIS_PREFIX: stack.env.REDIS_PREFIX,
      },
      encoding: 'utf8',
    },
  );
  expect(r.status).toBe(0);
  expect(await both(target, ws.apiKey)).toEqual([402, 402]);
});
