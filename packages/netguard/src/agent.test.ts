// Real sockets against a server on 127.0.0.1: with the policy's lookup a client never opens a
// connection to a refused address, whether the URL names a host or an IP literal, and with
// allowCidrs ['127.0.0.0/8'] the same client connects. No TLS certificate generator is installed,
// so the HTTPS agent is shown to refuse or reach the TCP port of a plain HTTP server; the handshake
// failing after that is expected.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createGuardedAgent } from './agent.ts';
import { isNetguardRefusal, NETGUARD_REFUSED } from './errors.ts';
import { createNetPolicy } from './policy.ts';
import { fakeResolver } from './test-resolver.ts';

type Response = { status: number; body: string };

const get = (url: string, agent: http.Agent): Promise<Response> =>
  new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.get(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });

const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (err: unknown) => err,
  );

describe('guarded connections', () => {
  const server = http.createServer((_req, res) => res.end('ok'));
  let connections = 0;
  let port = 0;
  const resolve = fakeResolver({ 'receiver.test': ['127.0.0.1'] });
  const agents: http.Agent[] = [];
  const track = <A extends http.Agent>(agent: A): A => (agents.push(agent), agent);

  beforeAll(async () => {
    server.on('connection', () => connections++);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const agent of agents) agent.destroy();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it('an http.Agent with the lookup refuses a name resolving to 127.0.0.1', async () => {
    const policy = createNetPolicy({ allowCidrs: [], resolve });
    const agent = track(new http.Agent({ lookup: policy.lookup }));
    const before = connections;
    const err = await failureOf(get(`http://receiver.test:${port}/`, agent));
    expect(err).toMatchObject({ code: NETGUARD_REFUSED });
    expect(connections).toBe(before);
  });

  it('the same agent connects when allowCidrs opens 127.0.0.0/8', async () => {
    const policy = createNetPolicy({ allowCidrs: ['127.0.0.0/8'], resolve });
    const agent = track(new http.Agent({ lookup: policy.lookup }));
    expect(await get(`http://receiver.test:${port}/`, agent)).toEqual({ status: 200, body: 'ok' });
  });

  it('the guarded HTTPS agent refuses a loopback literal and a loopback name before connecting', async () => {
    const agent = track(createGuardedAgent(createNetPolicy({ allowCidrs: [], resolve })));
    const before = connections;
    for (const url of [
      `https://127.0.0.1:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://receiver.test:${port}/`,
    ]) {
      const err = await failureOf(get(url, agent));
      expect(isNetguardRefusal(err)).toBe(true);
    }
    expect(connections).toBe(before);
  });

  it('the guarded HTTPS agent reaches the port when allowCidrs opens 127.0.0.0/8', async () => {
    const agent = track(createGuardedAgent(createNetPolicy({ allowCidrs: ['127.0.0.0/8'], resolve })));
    for (const url of [`https://127.0.0.1:${port}/`, `https://receiver.test:${port}/`]) {
      const before = connections;
      // The server speaks plain HTTP, so the TLS handshake fails once the connection is made.
      const err = await failureOf(get(url, agent));
      expect(isNetguardRefusal(err)).toBe(false);
      expect(connections).toBe(before + 1);
    }
  });

  it('the guarded HTTPS agent keeps connections alive and takes TLS options', () => {
    const policy = createNetPolicy({ allowCidrs: [] });
    const agent = track(createGuardedAgent(policy, { ca: 'test-ca', maxSockets: 4 }));
    expect(agent).toBeInstanceOf(https.Agent);
    expect(agent.options).toMatchObject({
      keepAlive: true,
      ca: 'test-ca',
      maxSockets: 4,
      lookup: policy.lookup,
    });
  });
});
