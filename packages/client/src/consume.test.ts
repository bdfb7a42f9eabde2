// The consumer loop's own rules, apart from the service (tests/client/consume.test.ts runs it against the
// real stack): which errors are transient, the lease length read from a claim answer, the backoff and
// the abortable pause; and, over an in-memory stand-in for the four mailbox calls, answers the real
// stack cannot be made to give on cue (503, 429 and network errors on every call) not stopping the loop,
// the concurrency cap, and a fatal error rejecting only after the handlers in flight finished.
import { describe, expect, it } from '@jest/globals';
import { consumeMailbox, createBackoff, isTransient, leaseMsOf, type MailboxCalls } from './consume.ts';
import { pause } from './wait.ts';
import { EvdsError } from './errors.ts';
import type { MailboxMessage } from './types.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('helpers', () => {
  it('isTransient: network errors, 429 and 5xx gateways; not 4xx answers about the message or key', () => {
    for (const status of [0, 429, 500, 502, 503, 504])
      expect(isTransient(new EvdsError(status, 'x', 'y'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409])
      expect(isTransient(new EvdsError(status, 'x', 'y'))).toBe(false);
    expect(isTransient(new Error('boom'))).toBe(false);
  });

  it('leaseMsOf: the lease from the claim answer alone, at least a second', () => {
    expect(leaseMsOf({ claimed_at: 1000, lease_expires_at: 1300 })).toBe(300_000);
    expect(leaseMsOf({ claimed_at: 1000, lease_expires_at: 1000 })).toBe(1000);
    expect(leaseMsOf({ claimed_at: null, lease_expires_at: null })).toBe(1000);
  });

  it('createBackoff doubles up to the cap and resets', () => {
    const b = createBackoff(100, 1000);
    const waits = Array.from({ length: 6 }, () => b.next());
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[3]).toBeGreaterThanOrEqual(400);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1000);
    b.reset();
    expect(b.next()).toBeLessThanOrEqual(100);
  });

  it('pause resolves at once on abort', async () => {
    const stop = new AbortController();
    const started = Date.now();
    const waiting = pause(10_000, stop.signal);
    stop.abort();
    await waiting;
    expect(Date.now() - started).toBeLessThan(100);
  });
});

/** A mailbox in memory with one key's view of claims, and a queue of errors to throw per call. */
function memoryMailbox(n: number) {
  const messages = Array.from({ length: n }, (_, i) => ({
    id: `m${String(i).padStart(3, '0')}`,
    state: 'UNREAD',
    acked: 0,
  }));
  const failures: Record<'list' | 'claim' | 'ack', EvdsError[]> = { list: [], claim: [], ack: [] };
  const shown = (m: (typeof messages)[number]) =>
    ({ id: m.id, state: m.state, claimed_at: 100, lease_expires_at: 101 }) as unknown as MailboxMessage;
  const fail = (call: keyof typeof failures) => {
    const err = failures[call].shift();
    if (err) throw err;
  };
  const calls: MailboxCalls = {
    list: async (_mailbox, query) => {
      await sleep(1);
      fail('list');
      const unread = messages.filter((m) => m.state === 'UNREAD');
      const from = query.after ? unread.findIndex((m) => m.id > query.after!) : 0;
      const page = from < 0 ? [] : unread.slice(from, from + Number(query.limit));
      const more = from >= 0 && from + page.length < unread.length;
      return { messages: page.map(shown), next_cursor: more ? page.at(-1)!.id : null };
    },
    claim: async (id) => {
      await sleep(1);
      fail('claim');
      const m = messages.find((x) => x.id === id)!;
      if (m.state === 'ACKNOWLEDGED') throw new EvdsError(409, 'conflict', 'acknowledged');
      m.state = 'CLAIMED';
      return { message: shown(m) };
    },
    ack: async (id) => {
      await sleep(1);
      fail('ack');
      const m = messages.find((x) => x.id === id)!;
      m.state = 'ACKNOWLEDGED';
      m.acked++;
      return { message: shown(m) };
    },
  };
  return { messages, failures, calls };
}

describe('the loop', () => {
  it('keeps going through 503, 429 and network errors on every call, acking each message once', async () => {
    const box = memoryMailbox(12);
    box.failures.list.push(
      new EvdsError(503, 'unavailable', 'busy'),
      new EvdsError(0, 'network_error', 'reset'),
    );
    box.failures.claim.push(new EvdsError(429, 'rate_limited', 'slow down'));
    box.failures.ack.push(
      new EvdsError(0, 'network_error', 'reset'),
      new EvdsError(503, 'unavailable', 'busy'),
    );
    const summary = await consumeMailbox(box.calls, 'mb', () => sleep(2), {
      concurrency: 3,
      max: 12,
      pollIntervalMs: 10,
      signal: AbortSignal.timeout(10_000),
    });
    expect(summary).toEqual({ acked: 12, failed: 0, lost: 0 });
    expect(box.messages.map((m) => m.acked)).toEqual(Array(12).fill(1));
  });

  it('never runs more handlers than `concurrency` at once', async () => {
    const box = memoryMailbox(20);
    let running = 0;
    let most = 0;
    const summary = await consumeMailbox(
      box.calls,
      'mb',
      async () => {
        most = Math.max(most, ++running);
        await sleep(5);
        running--;
      },
      { concurrency: 4, max: 20, signal: AbortSignal.timeout(10_000) },
    );
    expect(summary.acked).toBe(20);
    expect(most).toBe(4);
  });

  it('rejects on an error retrying cannot fix, after the handlers in flight finished and acked', async () => {
    const box = memoryMailbox(30);
    let finished = 0;
    const run = consumeMailbox(
      box.calls,
      'mb',
      async () => {
        box.failures.list.push(new EvdsError(401, 'unauthorized', 'key revoked'));
        await sleep(20);
        finished++;
      },
      { concurrency: 2, signal: AbortSignal.timeout(10_000) },
    );
    await expect(run).rejects.toMatchObject({ status: 401 });
    expect(finished).toBeGreaterThan(0);
    expect(box.messages.filter((m) => m.acked === 1)).toHaveLength(finished);
  });
});
