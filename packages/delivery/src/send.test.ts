// postJson through the guarded undici dispatcher against a real HTTPS server on 127.0.0.1: what an
// attempt keeps of each kind of answer (compressed, long, endless, cut off, slow, refused).
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createGuardedDispatcher, createNetPolicy } from '@evds/netguard';
import { createTestCa } from '@evds/testkit';
import type { Agent } from 'undici';
import { postJson, RESPONSE_BODY_KEEP } from './send.ts';

const routes: Record<string, (res: ServerResponse) => void> = {
  '/ok': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('fine'),
  '/gzip': (res) =>
    res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.from('{"received":true}'))),
  '/bad-gzip': (res) => res.writeHead(500, { 'content-encoding': 'gzip' }).end('not gzip at all'),
  '/long': (res) => res.writeHead(404).end('x'.repeat(RESPONSE_BODY_KEEP * 3)),
  '/endless': (res) => {
    // Twice the 1 MiB read cap, and never finished: the attempt stops reading at the cap.
    res.writeHead(200);
    res.write('y'.repeat(2 * 1024 * 1024));
  },
  '/cut': (res) => {
    res.writeHead(503, { 'content-length': '100' });
    res.write('partial');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/throttled': (res) => res.writeHead(429, { 'retry-after': '120' }).end(),
  '/redirect': (res) => res.writeHead(302, { location: '/ok' }).end(),
  '/silent': () => {},
  '/stalls-mid-body': (res) => {
    res.writeHead(200);
    res.write('first part');
  },
};

let server: Server;
let base = '';
let connections = 0;
const dispatchers: Agent[] = [];
let ca = '';

// receiver.evds.test answers 127.0.0.1 (the test certificate covers *.evds.test).
const testHosts = { 'receiver.evds.test': ['127.0.0.1'] };
const dispatcherFor = (allowCidrs: string[]) => {
  const policy = createNetPolicy({ allowCidrs, testHosts });
  const d = createGuardedDispatcher(policy, { connections: 8, connectTimeoutMs: 2000, ca });
  dispatchers.push(d);
  return d;
};
const post = (path: string, opts: { timeoutMs?: number; keepBytes?: number } = {}) =>
  postJson(
    `${base}${path}`,
    Buffer.from('{"n":1}'),
    { 'content-type': 'application/json' },
    {
      dispatcher: dispatcherFor(['127.0.0.0/8']),
      timeoutMs: opts.timeoutMs ?? 5000,
      ...(opts.keepBytes ? { keepBytes: opts.keepBytes } : {}),
    },
  );

beforeAll(async () => {
  const tls = await createTestCa();
  ca = tls.caPem;
  server = createServer({ key: tls.server.key, cert: tls.server.cert }, (req, res) => {
    req.resume();
    req.on('end', () => (routes[req.url ?? ''] ?? routes['/ok']!)(res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(dispatchers.map((d) => d.destroy()));
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

describe('postJson', () => {
  it('keeps the status and the answer as text', async () => {
    expect(await post('/ok')).toMatchObject({
      statusCode: 200,
      responseBody: 'fine',
      error: null,
      refused: false,
    });
  });

  it('decodes a compressed answer, and keeps what came of one that does not decode', async () => {
    expect(await post('/gzip')).toMatchObject({ statusCode: 200, responseBody: '{"received":true}' });
    expect(await post('/bad-gzip')).toMatchObject({ statusCode: 500, responseBody: '', error: null });
  });

  it('keeps the first 4 KiB of a long answer, or more when asked', async () => {
    expect((await post('/long')).responseBody).toHaveLength(RESPONSE_BODY_KEEP);
    expect((await post('/long', { keepBytes: 10_000 })).responseBody).toHaveLength(10_000);
  });

  it('stops reading an answer at 1 MiB and keeps its status', async () => {
    const r = await post('/endless', { timeoutMs: 10_000 });
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(r.responseBody).toHaveLength(RESPONSE_BODY_KEEP);
    expect(r.durationMs).toBeLessThan(5000);
  });

  it('keeps what came of an answer cut off mid-body', async () => {
    expect(await post('/cut')).toMatchObject({ statusCode: 503, responseBody: 'partial', error: null });
  });

  it('keeps Retry-After of a 429 and never follows a redirect', async () => {
    expect(await post('/throttled')).toMatchObject({ statusCode: 429, retryAfter: '120' });
    expect(await post('/redirect')).toMatchObject({ statusCode: 302, error: null });
  });

  it('times the whole attempt out before the answer, worded as ETIMEDOUT', async () => {
    const r = await post('/silent', { timeoutMs: 300 });
    expect(r).toMatchObject({ statusCode: null, responseBody: null, refused: false });
    expect(r.error).toBe("ETIMEDOUT: Timeout awaiting 'request' for 300ms");
    expect(r.durationMs).toBeGreaterThanOrEqual(290);
    expect(r.durationMs).toBeLessThan(2000);
  });

  it('after the status, a time-out ends the attempt with what came', async () => {
    const r = await post('/stalls-mid-body', { timeoutMs: 300 });
    expect(r).toMatchObject({ statusCode: 200, responseBody: 'first part', error: null });
  });

  it('refuses an address the policy refuses, literal or named, before any connection', async () => {
    const before = connections;
    const named = base.replace('127.0.0.1', 'receiver.evds.test');
    const mapped = base.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    for (const url of [base, mapped, named]) {
      const r = await postJson(
        `${url}/ok`,
        Buffer.from('{}'),
        {},
        { dispatcher: dispatcherFor([]), timeoutMs: 2000 },
      );
      expect(r).toMatchObject({ statusCode: null, responseBody: null, refused: true });
    }
    expect(connections).toBe(before);
    const allowed = dispatcherFor(['127.0.0.0/8']);
    const r = await postJson(`${named}/ok`, Buffer.from('{}'), {}, { dispatcher: allowed, timeoutMs: 2000 });
    expect(r).toMatchObject({ statusCode: 200, refused: false });
  });

  it('bounds the connection set-up apart from the whole attempt', async () => {
    // A TCP listener that never answers the TLS handshake.
    const silent = createNetServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const port = (silent.address() as AddressInfo).port;
    const policy = createNetPolicy({ allowCidrs: ['127.0.0.0/8'] });
    const dispatcher = createGuardedDispatcher(policy, { connections: 1, connectTimeoutMs: 200, ca });
    dispatchers.push(dispatcher);
    const r = await postJson(
      `https://127.0.0.1:${port}/`,
      Buffer.from('{}'),
      {},
      { dispatcher, timeoutMs: 10_000 },
    );
    silent.close();
    expect(r).toMatchObject({ statusCode: null, refused: false });
    expect(r.error).toMatch(/connect timeout/i);
    // undici checks its connect time-outs on a coarse clock (about a second here): well inside 10 s.
    expect(r.durationMs).toBeLessThan(5000);
  });

  it('names a refused connection', async () => {
    const r = await postJson(
      'https://127.0.0.1:1/',
      Buffer.from('{}'),
      {},
      {
        dispatcher: dispatcherFor(['127.0.0.0/8']),
        timeoutMs: 2000,
      },
    );
    expect(r).toMatchObject({ statusCode: null, refused: false });
    expect(r.error).toMatch(/ECONNREFUSED/);
  });
});
