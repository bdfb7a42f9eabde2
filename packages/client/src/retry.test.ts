import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { EvdsError } from './errors.ts';
import { fetchWithRetry, type RetryPolicy } from './retry.ts';

// A real HTTP server on 127.0.0.1 whose n-th answer is scripted by each test; it records what arrived.
type Answer = (res: ServerResponse) => void;
const status =
  (code: number, headers: Record<string, string> = {}): Answer =>
  (res) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: `answered ${code}`, code: code === 200 ? 'ok' : 'refused' }));
  };
const hangUp: Answer = (res) => res.socket?.destroy();

let server: Server;
let url: string;
let script: Answer[] = [];
let arrived: { method: string; key: string | undefined; body: string; at: number }[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = req.headers['idempotency-key'];
      arrived.push({
        method: req.method ?? '',
        key: typeof key === 'string' ? key : undefined,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      });
      (script[arrived.length - 1] ?? status(200))(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
beforeEach(() => {
  script = [];
  arrived = [];
});

const policy: RetryPolicy = { retries: 3, maxDelayMs: 2_000, baseDelayMs: 20 };
const call = (method: string, headers: Record<string, string> = {}, p: Partial<RetryPolicy> = {}) =>
  fetchWithRetry(
    fetch,
    url,
    { method, headers, body: method === 'GET' ? undefined : '{"a":1}' },
    {
      ...policy,
      ...p,
    },
  );

describe('refusals (429, 503)', () => {
  it('a GET is retried with backoff until it is answered', async () => {
    script = [status(503, { 'retry-after': '0' }), status(429), status(200)];
    expect((await call('GET')).status).toBe(200);
    expect(arrived.map((a) => a.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('a 503 without Retry-After is a lasting refusal: answered at once', async () => {
    script = [status(503), status(200)];
    expect((await call('GET')).status).toBe(503);
    expect(arrived).toHaveLength(1);
  });

  it('a POST with an Idempotency-Key is retried with the same key and body', async () => {
    script = [status(429, { 'retry-after': '0' }), status(200)];
    expect((await call('POST', { 'idempotency-key': 'k1' })).status).toBe(200);
    expect(arrived.map((a) => [a.key, a.body])).toEqual([
      ['k1', '{"a":1}'],
      ['k1', '{"a":1}'],
    ]);
  });

  it('a POST without a key is answered the refusal at once', async () => {
    script = [status(503, { 'retry-after': '0' })];
    expect((await call('POST')).status).toBe(503);
    expect(arrived).toHaveLength(1);
  });

  it('Retry-After is waited for; one longer than maxDelayMs is not', async () => {
    script = [status(503, { 'retry-after': '1' }), status(200)];
    expect((await call('GET')).status).toBe(200);
    expect(arrived[1]!.at - arrived[0]!.at).toBeGreaterThanOrEqual(950);

    arrived = [];
    script = [status(503, { 'retry-after': '3' })];
    const started = Date.now();
    const res = await call('GET');
    expect([res.status, res.headers.get('retry-after'), arrived.length]).toEqual([503, '3', 1]);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('gives up after `retries` and answers the last refusal; retries: 0 turns retrying off', async () => {
    script = [status(429), status(429), status(429), status(429), status(200)];
    expect((await call('GET')).status).toBe(429);
    expect(arrived).toHaveLength(4);
    arrived = [];
    script = [status(429), status(200)];
    expect((await call('GET', {}, { retries: 0 })).status).toBe(429);
    expect(arrived).toHaveLength(1);
  });

  it('other statuses are never retried', async () => {
    script = [status(500), status(200)];
    expect((await call('GET')).status).toBe(500);
    expect(arrived).toHaveLength(1);
  });
});

describe('lost answers', () => {
  it('a GET and a keyed POST are sent again after the connection drops', async () => {
    script = [hangUp, status(200)];
    expect((await call('GET')).status).toBe(200);
    arrived = [];
    script = [hangUp, status(200)];
    expect((await call('POST', { 'idempotency-key': 'k2' })).status).toBe(200);
    expect(arrived.map((a) => a.key)).toEqual(['k2', 'k2']);
  });

  it('a POST without a key is not: network_error, status 0, one request', async () => {
    script = [hangUp, status(200)];
    const err = await call('POST').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvdsError);
    expect([(err as EvdsError).status, (err as EvdsError).code]).toEqual([0, 'network_error']);
    expect(arrived).toHaveLength(1);
  });
});

describe('abort', () => {
  it('an abort during a wait rejects at once with the reason and sends nothing more', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    // The abort comes 100 ms after the first answer (a 503 asking for a 1 s wait), so during the wait
    // however long that first request took on a busy machine.
    script = [
      (res) => {
        status(503, { 'retry-after': '1' })(res);
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort(new Error('stopped'));
        }, 100);
      },
      status(200),
    ];
    const err = await fetchWithRetry(
      fetch,
      url,
      { method: 'GET', headers: {}, signal: controller.signal },
      policy,
    ).catch((e: unknown) => e);
    expect((err as Error).message).toBe('stopped');
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(arrived).toHaveLength(1);
  });
});
