// Proves REDIS_URL=rediss-cluster://... on a real three-master Redis Cluster whose nodes speak TLS only
// (no plain-text port; the cluster bus over TLS too), under a certificate authority of its own that
// the services trust through NODE_EXTRA_CA_CERTS: the api, ingest and the delivery worker run as
// processes against it, items go through the BullMQ queues to a real HTTPS receiver, signed (checked
// with the official standardwebhooks package), a failing answer is retried through a delayed job, and
// the queues' keys are on the cluster's nodes. A plain-text client gets no answer from a node.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  createTestCa,
  seedWorkspace,
  startReceiver,
  startRedisCluster,
  startStack,
  type Receiver,
  type RedisClusterHarness,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import { Webhook } from 'standardwebhooks';
import { createWebhookTarget, waitForStatus } from '../e2e/helpers.ts';

let cluster: RedisClusterHarness;
let receiver: Receiver;
let stack: Stack;
let ws: TestWorkspace;
let trustDir: string | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster({ tls: true });
  const ca = await createTestCa();
  // The services trust the receiver's CA and the cluster's, from one file.
  trustDir = mkdtempSync(join(tmpdir(), 'evds-trust-'));
  const trusted = join(trustDir, 'ca.pem');
  writeFileSync(trusted, `${ca.caPem}\n${cluster.caPem ?? ''}`);
  // "/retry" fails once then answers; everything else answers at once.
  const seen = new Map<string, number>();
  receiver = await startReceiver(ca.server, (req) => {
    const n = (seen.get(req.path) ?? 0) + 1;
    seen.set(req.path, n);
    return { status: req.path === '/retry' && n === 1 ? 503 : 200 };
  });
  stack = await startStack({
    caFile: trusted,
    env: { REDIS_URL: cluster.url, RETRY_DELAYS_MS: '200,200,200' },
  });
  ws = await seedWorkspace(stack.db);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await cluster?.stop();
  if (trustDir) rmSync(trustDir, { recursive: true, force: true });
});

it('is a TLS-only cluster: a plain-text PING gets no PONG', async () => {
  expect(cluster.url.startsWith('rediss-cluster://')).toBe(true);
  const port = cluster.nodes[0]?.port ?? 0;
  const answer = await new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    let got = '';
    const timer = setTimeout(() => socket.destroy(), 2_000);
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
  });
  expect(answer).not.toContain('+PONG');
});

it('delivers signed webhooks through the queues and retries through a delayed job', async () => {
  const target = await createWebhookTarget(stack, ws, `${receiver.url}/hooks`);
  const retried = await createWebhookTarget(stack, ws, `${receiver.url}/retry`);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await stack.ingest<{ id: string }>(`/t/${target.id}`, { key: ws.apiKey, body: { i } });
    expect(r.status).toBe(202);
    ids.push(r.body.id);
  }
  for (const id of ids) await waitForStatus(stack, ws, id, 'DELIVERED');
  const arrived = receiver.received.filter((q) => q.path === '/hooks');
  expect(arrived).toHaveLength(5);
  for (const got of arrived) {
    const body = new Webhook(target.secret).verify(got.body.toString(), got.headers) as { i: number };
    expect(ids[body.i]).toBe(got.headers['webhook-id']);
  }

  const r = await stack.ingest<{ id: string }>(`/t/${retried.id}`, { key: ws.apiKey, body: { again: true } });
  const event = await waitForStatus(stack, ws, r.body.id, 'DELIVERED');
  expect(event.delivery_attempts.map((a) => a.status_code)).toEqual([503, 200]);

  const keys = [...(await cluster.keysByNode(`${stack.env.REDIS_PREFIX ?? ''}*`)).values()].flat();
  expect(keys.some((k) => k.includes(':bull:{webhook-delivery}:'))).toBe(true);
}, 60_000);
