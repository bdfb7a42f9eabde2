// Proves the network policy holds at delivery time, not only when a target is created (decisions §8):
// a webhook target whose host name resolved to a public address when the API accepted it, and
// resolves to loopback by the time the delivery worker sends (DNS rebinding), is refused when the
// worker connects: the event ends FAILED at once (no retries), its attempt and final_reason give the
// network policy's reason, and nothing ever connects to the address the name now points at. Neither
// that reason nor the API's 422 for a name that resolves to a private address names the address (the
// caller learns the name was refused, not what the operator's network looks like); the services' logs
// do. The names' answers come from NETGUARD_TEST_HOSTS, a test-only hook that production refuses.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { loadApiConfig, loadWorkerConfig } from '@evds/config';
import { seedWorkspace, spawnService, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { pollUntil, waitForStatus } from '../e2e/helpers.ts';

const HOST = 'hook.rebinding.example';
/** Public, and never connected to: only the API resolves the name while it points here, and it does not connect. */
const PUBLIC_IP = '93.184.215.14';
/** A name that points into the private network from the start. */
const EVIL = 'evil.test';
const EVIL_IP = '10.1.2.3';

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
    env: { NETGUARD_ALLOW_CIDRS: '', NETGUARD_TEST_HOSTS: `${HOST}=${PUBLIC_IP},${EVIL}=${EVIL_IP}` },
  });
  ws = await seedWorkspace(stack.db);
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => trap?.close(resolve));
});

/** The log lines a service wrote about refused host names. */
const refusalLogs = (service: 'api' | 'delivery-worker') =>
  (stack.processes.get(service)?.logs ?? []).filter((l) => l.msg === 'network policy refused a host name');

describe('a host name that resolves to a private address when the target is created', () => {
  const reason = `url: refused by the network policy: host ${EVIL} resolves to a non-public address`;

  it.each([
    ['an endpoint', '/api/v1/endpoints', { name: 'evil', url: `https://${EVIL}/hook` }],
    ['a webhook target', '/api/v1/targets', { kind: 'webhook', name: 'evil', url: `https://${EVIL}/hook` }],
  ])('refuses %s with 422 and a reason that does not name the address', async (_what, path, body) => {
    const r = await stack.api<{ code: string; error: string }>(path, { key: ws.apiKey, body });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'url_refused', error: reason });
    expect(JSON.stringify(r.body)).not.toContain(EVIL_IP);
  });

  it('refuses an Agent Card URL on that name the same way', async () => {
    const r = await stack.api<{ code: string; error: string }>('/api/v1/targets', {
      key: ws.apiKey,
      body: {
        kind: 'a2a',
        name: 'evil',
        agent_card_url: `https://${EVIL}/card.json`,
        auth: { type: 'none' },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('url_refused');
    expect(r.body.error).toContain(`host ${EVIL} resolves to a non-public address`);
    expect(JSON.stringify(r.body)).not.toContain(EVIL_IP);
  });

  it('leaves the address in the API log', async () => {
    // The API's output reaches this process a little after its answers.
    await pollUntil(
      'the refusal in the API log',
      () => (refusalLogs('api').length > 0 ? true : undefined),
      5000,
    );
    expect(refusalLogs('api')).toContainEqual(
      expect.objectContaining({
        host: EVIL,
        address: EVIL_IP,
        reason: `address ${EVIL_IP} is not public (private)`,
      }),
    );
  });
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
    const reason = `host ${HOST} resolves to a non-public address`;
    expect(event.final_reason).toContain(reason);
    expect(event.delivery_attempts).toHaveLength(1);
    expect(event.delivery_attempts[0]).toMatchObject({ status_code: null, response_body: null });
    expect(event.delivery_attempts[0]?.error).toContain(reason);
    // What the sender learns from the delivery log stops at the name; the worker's own log has the address.
    expect(JSON.stringify([event.final_reason, event.delivery_attempts])).not.toContain('127.0.0.1');
    expect(refusalLogs('delivery-worker')).toContainEqual(
      expect.objectContaining({ host: HOST, address: '127.0.0.1' }),
    );
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
