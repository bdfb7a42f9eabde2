// Proves the network policy holds at delivery time, not only when a target is created (decisions §8):
// a webhook target whose host name resolved to a public address when the API accepted it, and
// resolves to loopback by the time the delivery worker sends (DNS rebinding), is refused when the
// worker connects: the event ends FAILED at once (no retries), its attempt and final_reason give the
// network policy's reason, and nothing ever connects to the address the name now points at. The name's
// answers come from NETGUARD_TEST_HOSTS, a test-only hook that production configuration refuses.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { loadApiConfig, loadWorkerConfig } from '@evds/config';
import { seedWorkspace, spawnService, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { waitForStatus } from '../e2e/helpers.ts';

const HOST = 'hook.rebinding.example';
/** Public, and never connected to: only the API resolves the name while it points here, and it does not connect. */
const PUBLIC_IP = '93.184.215.14';

let stack: Stack;
let ws: TestWorkspace;
/** Listens where the name points at delivery time and counts every connection made to it. */
let trap: Server;
let trapPort: number;
let connections = 0;

beforeAll(async () => {
  trap = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as AddressInfo).port;
  // Loopback is not allowed here (NETGUARD_ALLOW_CIDRS empty), as in production.
  stack = await startStack({
    services: ['api', 'ingest', 'delivery-worker'],
    env: { NETGUARD_ALLOW_CIDRS: '', NETGUARD_TEST_HOSTS: `${HOST}=${PUBLIC_IP}` },
  });
  ws = await seedWorkspace(stack.db);
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => trap?.close(resolve));
});

describe('a host name that rebinds to loopback after the target was created', () => {
  it('is refused at connection time: FAILED with the reason, and no connection made', async () => {
    const created = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'webhook', name: 'rebinding', url: `https://${HOST}:${trapPort}/hook` },
    });
    expect(created.status).toBe(201);

    // The worker restarts with the name now pointing at 127.0.0.1.
    await stack.processes.get('delivery-worker')?.kill('SIGTERM');
    stack.processes.set(
      'delivery-worker',
      await spawnService('delivery-worker', { ...stack.env, NETGUARD_TEST_HOSTS: `${HOST}=127.0.0.1` }),
    );

    const accepted = await stack.ingest<{ id: string }>(`/t/${created.body.target.id}`, {
      key: ws.apiKey,
      body: { event_type: 'order.created', id: 1 },
    });
    expect(accepted.status).toBe(202);

    const event = await waitForStatus(stack, ws, accepted.body.id, 'FAILED');
    const reason = `host ${HOST}: address 127.0.0.1 is not public (loopback)`;
    expect(event.final_reason).toContain(reason);
    expect(event.delivery_attempts).toHaveLength(1);
    expect(event.delivery_attempts[0]).toMatchObject({ status_code: null, response_body: null });
    expect(event.delivery_attempts[0]?.error).toContain(reason);
    // Long enough for a retry, had the refusal been taken for a passing network error.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const later = await waitForStatus(stack, ws, accepted.body.id, 'FAILED');
    expect(later.delivery_attempts).toHaveLength(1);
    expect(connections).toBe(0);
  });

  it('would have been reached but for the policy (control: loopback allowed, the worker connects)', async () => {
    const created = await stack.api<{ target: { id: string } }>('/api/v1/targets', {
      key: ws.apiKey,
      body: { kind: 'webhook', name: 'control', url: `https://${HOST}:${trapPort}/hook` },
    });
    expect(created.status).toBe(201);
    await stack.processes.get('delivery-worker')?.kill('SIGTERM');
    stack.processes.set(
      'delivery-worker',
      await spawnService('delivery-worker', {
        ...stack.env,
        NETGUARD_ALLOW_CIDRS: '127.0.0.0/8',
        NETGUARD_TEST_HOSTS: `${HOST}=127.0.0.1`,
      }),
    );
    const accepted = await stack.ingest<{ id: string }>(`/t/${created.body.target.id}`, {
      key: ws.apiKey,
      body: { id: 2 },
    });
    expect(accepted.status).toBe(202);
    const deadline = Date.now() + 10_000;
    while (connections === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(connections).toBeGreaterThan(0);
  });
});

describe('NETGUARD_TEST_HOSTS', () => {
  const env = { ENCRYPTION_KEYS: 'k:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' };

  it('is read as a name -> addresses table', () => {
    const cfg = loadWorkerConfig({
      ...env,
      NETGUARD_TEST_HOSTS: 'A.example=10.0.0.1, a.example=::1,b.example=1.2.3.4',
    });
    expect(cfg.NETGUARD_TEST_HOSTS).toEqual({ 'a.example': ['10.0.0.1', '::1'], 'b.example': ['1.2.3.4'] });
    expect(loadWorkerConfig(env).NETGUARD_TEST_HOSTS).toEqual({});
  });

  it('refuses entries that are not name=ip', () => {
    expect(() => loadWorkerConfig({ ...env, NETGUARD_TEST_HOSTS: 'a.example=not-an-ip' })).toThrow(
      'NETGUARD_TEST_HOSTS.0: must be name=ip with an IP address',
    );
  });

  it('is refused in production, by the api and the workers alike', () => {
    const prod = { ...env, NODE_ENV: 'production', NETGUARD_TEST_HOSTS: `${HOST}=127.0.0.1` };
    expect(() => loadWorkerConfig(prod)).toThrow('NETGUARD_TEST_HOSTS is refused when NODE_ENV=production');
    expect(() => loadApiConfig(prod)).toThrow('NETGUARD_TEST_HOSTS is refused when NODE_ENV=production');
  });
});
