import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { errorFromResponse, EvdsError, retryAfterSeconds } from './errors.ts';

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it.each([
    ['5', 5],
    [' 0 ', 0],
    ['Wed, 25 Nov 2026 12:00:30 GMT', 30],
    ['Wed, 25 Nov 2026 11:59:00 GMT', 0],
    [null, null],
    ['', null],
    ['soon', null],
    ['-1', null],
    ['1.5', null],
  ])('%p is %p seconds', (header, seconds) => {
    expect(retryAfterSeconds(header, now)).toBe(seconds);
  });
});

// Responses from a real HTTP server on 127.0.0.1: the body and headers exactly as a service or a proxy
// in front of it would send them.
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, type, body, retryAfter] = decodeURIComponent(req.url!.slice(1)).split('|');
    res.writeHead(Number(status), {
      'content-type': type!,
      ...(retryAfter ? { 'retry-after': retryAfter } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

/** The EvdsError of a real response, its body read the way the client reads it. */
async function errorOf(status: number, type: string, body: string, retryAfter = ''): Promise<EvdsError> {
  const res = await fetch(`${base}/${encodeURIComponent([status, type, body, retryAfter].join('|'))}`);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text
  }
  return errorFromResponse(res, parsed);
}

describe('errorFromResponse', () => {
  it("keeps the service's status, code and message", async () => {
    const err = await errorOf(404, 'application/json', '{"error":"target not found","code":"not_found"}');
    expect(err).toBeInstanceOf(EvdsError);
    expect(err).toBeInstanceOf(Error);
    expect([err.status, err.code, err.error, err.retryAfterSeconds]).toEqual([
      404,
      'not_found',
      'target not found',
      null,
    ]);
    expect(err.message).toBe('404 not_found: target not found');
  });

  it('carries Retry-After as seconds', async () => {
    const body = '{"error":"rate limit exceeded for this endpoint","code":"rate_limited"}';
    const err = await errorOf(429, 'application/json', body, '7');
    expect([err.status, err.code, err.retryAfterSeconds]).toEqual([429, 'rate_limited', 7]);
  });

  it("an answer that is not the service's JSON is unexpected_response, with the start of its text", async () => {
    const err = await errorOf(502, 'text/html', '<html>Bad Gateway</html>', '2');
    expect([err.status, err.code, err.error, err.retryAfterSeconds]).toEqual([
      502,
      'unexpected_response',
      '<html>Bad Gateway</html>',
      2,
    ]);
    const odd = await errorOf(500, 'application/json', '{"message":"no code here"}');
    expect([odd.code, odd.error]).toEqual(['unexpected_response', 'Internal Server Error']);
  });
});
