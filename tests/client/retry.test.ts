// Proves the client's retry rules against real processes: a TCP proxy on 127.0.0.1 in front of the
// ingest service forwards a send but drops the answer; `send` tries again with the Idempotency-Key it
// generated, the service answers the first result (Idempotent-Replayed: true) and the database holds
// exactly one item for it, for a webhook target (events) and a mailbox (messages) alike. A POST without
// an Idempotency-Key whose answer is dropped is not sent again: the caller gets `network_error` and the
// proxy saw one connection. With the ingest window lowered to two items a second, a third send is
// refused 429 with Retry-After: 1; the client waits that second and succeeds, and a client whose
// `maxDelayMs` is shorter than the Retry-After does not wait and throws `rate_limited` with
// `retryAfterSeconds` at once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EvdsError, type EvdsClient } from '@evds/client';
import { startClientKit, startDroppingProxy, type ClientKit, type DroppingProxy } from './kit.ts';

let kit: ClientKit;
const proxies: DroppingProxy[] = [];

beforeAll(async () => {
  kit = await startClientKit({ INGEST_RATE_LIMIT: '2', INGEST_RATE_WINDOW_SECONDS: '1' });
}, 60_000);
afterAll(async () => {
  // An open proxy keeps a connection to ingest, which would hold its graceful shutdown.
  await Promise.all(proxies.map((p) => p.close()));
  await kit.stop();
});

interface Attempt {
  at: number;
  status: number;
  replayed: string | null;
  retryAfter: string | null;
}

/** A client over `ingestUrl` whose every attempt (time, status, headers) is recorded; fetch itself is real. */
function recordedClient(ingestUrl: string, retry = {}): { client: EvdsClient; attempts: Attempt[] } {
  const attempts: Attempt[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    attempts.push({
      at: Date.now(),
      status: res.status,
      replayed: res.headers.get('idempotent-replayed'),
      retryAfter: res.headers.get('retry-after'),
    });
    return res;
  };
  return { client: kit.clientWith({ ingestUrl, fetch: recording, retry }), attempts };
}

async function droppingProxy(): Promise<DroppingProxy> {
  const proxy = await startDroppingProxy(kit.stack.processes.get('ingest')!.url, 1);
  proxies.push(proxy);
  return proxy;
}

async function createTarget(kind: 'webhook' | 'mailbox'): Promise<string> {
  const body =
    kind === 'webhook' ? { kind, name: 'retry', url: kit.receiver.url } : ({ kind, name: 'retry' } as const);
  return (await kit.client.targets.create(body)).target.id;
}

/** The ids of the items stored for a target: event rows or mailbox messages. */
async function storedIds(kind: 'webhook' | 'mailbox', targetId: string): Promise<string[]> {
  const rows =
    kind === 'webhook'
      ? await kit.stack.db.selectFrom('events').select('id').where('target_id', '=', targetId).execute()
      : await kit.stack.db
          .selectFrom('mailbox_messages')
          .select('id')
          .where('mailbox_id', '=', targetId)
          .execute();
  return rows.map((r) => r.id);
}

describe('a dropped answer', () => {
  it.each(['webhook', 'mailbox'] as const)(
    'an ingest retried after a dropped response makes one item (%s)',
    async (kind) => {
      const targetId = await createTarget(kind);
      const proxy = await droppingProxy();
      const { client, attempts } = recordedClient(proxy.url);
      const accepted = await client.send(targetId, { once: kind }, { type: 'retry.test' });
      // The first attempt never got an answer, so only the retry's answer was recorded.
      expect(proxy.dropped).toBe(1);
      expect(proxy.connections).toBe(2);
      expect(attempts.map((a) => [a.status, a.replayed])).toEqual([[202, 'true']]);
      expect(await storedIds(kind, targetId)).toEqual([accepted.id]);
    },
  );

  it('a POST without an Idempotency-Key is not sent again: network_error, one request', async () => {
    const endpoint = await kit.client.endpoints.create({ name: 'no-key', url: kit.receiver.url });
    const proxy = await droppingProxy();
    const { client } = recordedClient(proxy.url);
    const err = await client.sendToEndpoint(endpoint.id, { once: 'no key' }).then(
      () => new Error('the call succeeded'),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EvdsError);
    expect([(err as EvdsError).status, (err as EvdsError).code]).toEqual([0, 'network_error']);
    expect(proxy.connections).toBe(1);
    // The service did take it: exactly why it must not be sent a second time.
    const rows = await kit.stack.db
      .selectFrom('events')
      .select('id')
      .where('target_id', '=', endpoint.id)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  const fill = async (client: EvdsClient, targetId: string) => {
    for (let i = 0; i < 2; i++) await client.send(targetId, { fill: i });
  };

  it('a 429 is waited for as long as Retry-After says, then the send succeeds', async () => {
    const targetId = await createTarget('mailbox');
    const { client, attempts } = recordedClient(kit.stack.processes.get('ingest')!.url);
    await fill(client, targetId);
    const started = Date.now();
    const accepted = await client.send(targetId, { third: true });
    expect(accepted.status).toBe('UNREAD');
    const [refused, retried] = attempts.slice(2);
    expect([refused?.status, refused?.retryAfter, retried?.status]).toEqual([429, '1', 202]);
    const waited = retried!.at - refused!.at;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(2_000);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(await storedIds('mailbox', targetId)).toHaveLength(3);
  });

  it('a Retry-After longer than maxDelayMs is not waited for: rate_limited at once', async () => {
    const targetId = await createTarget('mailbox');
    const { client, attempts } = recordedClient(kit.stack.processes.get('ingest')!.url, {
      maxDelayMs: 500,
    });
    await fill(client, targetId);
    const started = Date.now();
    const err = await client.send(targetId, { third: true }).then(
      () => new Error('the call succeeded'),
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(400);
    expect(err).toBeInstanceOf(EvdsError);
    const { status, code, retryAfterSeconds } = err as EvdsError;
    expect([status, code, retryAfterSeconds]).toEqual([429, 'rate_limited', 1]);
    expect(attempts.map((a) => a.status)).toEqual([202, 202, 429]);
  });
});
