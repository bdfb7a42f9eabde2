// Proves the typed client against the real stack (api, ingest and delivery-worker processes, a real
// HTTPS receiver): every named method of routeMethods, `send` and `sendToEndpoint` is called once and
// its answer carries what the route promises (ids that round-trip, a delivered event, a replay that
// points at its source, a recovery that can be read back, a claimed then acknowledged message); errors
// come back as EvdsError with the service's status and code (404 for another organization's or an
// unknown id, 400 for a body of the wrong type, 401 for a bad key, 403 for signup, 503 while billing is
// disabled, and the refusal to refresh a webhook target as an Agent Card). Every request the clients
// make is recorded, and the last test checks it against the operations of the committed openapi.json,
// so a route added to the API without a client method (or a method left out of this file) fails here.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { committedDocument } from '@evds/client/document';
import { EvdsError, type ClientOptions, type EvdsClient } from '@evds/client';
import { seedWorkspace } from '@evds/testkit';
import { startClientKit, type ClientKit } from './kit.ts';

/** Answered by the payment processor's calls, not by a user of the service: no client method. */
const NOT_FOR_CLIENTS = new Set(['POST /api/v1/billing/webhook']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const doc = JSON.parse(committedDocument()) as { paths: Record<string, Record<string, unknown>> };
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((m) => METHODS.includes(m))
    .map((m) => ({ op: `${m.toUpperCase()} ${path}`, method: m.toUpperCase(), path })),
);

/** `METHOD /path` of each request the clients made, recorded by a pass-through fetch. */
const seen = new Set<string>();
const recording: typeof fetch = (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  seen.add(`${request.method} ${new URL(request.url).pathname}`);
  return fetch(input, init);
};

let kit: ClientKit;
let client: EvdsClient;
let session: EvdsClient;
const make = (options: Partial<ClientOptions>) => kit.clientWith({ fetch: recording, ...options });

/** Resolves to the EvdsError the call threw (fails when it resolved). */
async function refusal(call: Promise<unknown>): Promise<EvdsError> {
  const err = await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EvdsError);
  return err as EvdsError;
}

async function eventuallyDelivered(eventId: string) {
  for (let i = 0; i < 200; i++) {
    const event = await client.events.get(eventId);
    if (event.status === 'DELIVERED') return event;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`event ${eventId} was not delivered`);
}

beforeAll(async () => {
  kit = await startClientKit();
  client = make({});
  const login = await make({ apiKey: undefined }).auth.login({
    email: kit.ws.email,
    password: kit.ws.password,
  });
  session = make({ apiKey: undefined, sessionToken: login.session_token });
}, 60_000);
afterAll(() => kit.stop());

describe('service and account', () => {
  it('health, openapi, me, org get and rename', async () => {
    expect((await client.health()).status).toBe('ok');
    expect((await client.openapi()).paths).toHaveProperty(['/t/{target_id}']);
    const me = await client.auth.me();
    expect(me.org.id).toBe(kit.ws.orgId);
    expect(me.auth.method).toBe('api_key');
    await expect(client.org.rename('Renamed by the client')).resolves.toEqual({ updated: true });
    expect((await client.org.get()).org.name).toBe('Renamed by the client');
  });

  it('keys: create, list, delete; a deleted key is a 401 with its code', async () => {
    const created = await client.keys.create('second');
    expect(created.key).toMatch(/^evds_sk_/);
    expect((await client.keys.list()).keys.map((k) => k.id)).toContain(created.id);
    await expect(client.keys.delete(created.id)).resolves.toEqual({ deleted: true });
    const err = await refusal(make({ apiKey: created.key }).org.get());
    expect([err.status, err.code]).toEqual([401, 'unauthenticated']);
  });

  it('signup is refused with 403', async () => {
    const err = await refusal(make({ apiKey: undefined }).auth.signup());
    expect(err.status).toBe(403);
    expect(err.code).toEqual(expect.any(String));
  });

  it('a bad key is a typed 401 on the API and on ingest', async () => {
    const bad = make({ apiKey: 'evds_sk_not_a_key' });
    // One after the other: a call started early and refused while the first is awaited would be an
    // unhandled rejection, failing the test whenever ingest answers before the API.
    for (const call of [() => bad.targets.list(), () => bad.send('tgt_unknown', { a: 1 })]) {
      const err = await refusal(call());
      expect([err.status, err.code]).toEqual([401, 'unauthenticated']);
    }
  });
});

describe('webhook targets, events and recoveries', () => {
  let targetId: string;
  let eventId: string;

  it('targets: create, get, list, update, rotate and drop the previous secret', async () => {
    const created = await client.targets.create({ kind: 'webhook', name: 'hook', url: kit.receiver.url });
    targetId = created.target.id;
    expect((await client.targets.get(targetId)).target.name).toBe('hook');
    expect((await client.targets.list()).targets.map((t) => t.id)).toContain(targetId);
    const updated = await client.targets.update(targetId, { name: 'hook 2' });
    expect(updated.target.name).toBe('hook 2');
    expect((await client.targets.rotateSecret(targetId)).has_previous_signing_secret).toBe(true);
    expect((await client.targets.dropPreviousSecret(targetId)).has_previous_signing_secret).toBe(false);
  });

  it('send delivers to the receiver, with the type and correlation id; events read it back', async () => {
    const accepted = await client.send(targetId, { order: 1 }, { type: 'order.paid', correlationId: 'c-1' });
    expect([accepted.target_id, accepted.kind, accepted.status]).toEqual([targetId, 'webhook', 'QUEUED']);
    eventId = accepted.id;
    const event = await eventuallyDelivered(eventId);
    expect([event.event_type, event.correlation_id]).toEqual(['order.paid', 'c-1']);
    const [received] = await kit.receiver.waitFor(1);
    expect(JSON.parse(received!.body.toString())).toEqual({ order: 1 });
    const listed = await client.events.list({ correlation_id: 'c-1' });
    expect(listed.events.map((e) => e.id)).toEqual([eventId]);
  });

  it('replay, test, recover and the recovery read back', async () => {
    const replay = await client.events.replay(eventId);
    expect(replay.source_event_id).toBe(eventId);
    const test = await client.targets.test(targetId, { event_type: 'ping' });
    expect([test.test, test.event_type]).toEqual([true, 'ping']);
    const recovery = await client.targets.recover(targetId, { since: 0, statuses: ['DELIVERED'] });
    expect(recovery.target_id).toBe(targetId);
    expect((await client.recoveries.get(recovery.id)).id).toBe(recovery.id);
  });

  it('stats and the time series count the organization', async () => {
    const stats = await client.stats.get({ window: '24h' });
    expect(stats.events.total).toBeGreaterThanOrEqual(1);
    const series = await client.stats.timeseries({ window: '24h' });
    expect(series.buckets.length).toBeGreaterThan(0);
    expect((await client.usage()).usage.accepted_events).toBeGreaterThanOrEqual(1);
  });

  it('refresh of a webhook target is a typed refusal; delete removes it', async () => {
    const err = await refusal(client.targets.refresh(targetId));
    expect(err.code).toBe('wrong_target_kind');
    expect(err.status).toBeGreaterThanOrEqual(400);
    await expect(client.targets.delete(targetId)).resolves.toEqual({ deleted: true });
    expect((await refusal(client.targets.get(targetId))).status).toBe(404);
  });

  it("another organization's ids and unknown ids are 404, wrong types 400", async () => {
    const other = await seedWorkspace(kit.stack.db);
    const foreign = make({ apiKey: other.apiKey });
    const notFound = await refusal(foreign.events.get(eventId));
    expect([notFound.status, notFound.code]).toEqual([404, 'not_found']);
    expect((await refusal(client.recoveries.get('rec_unknown'))).status).toBe(404);
    const invalid = await refusal(client.org.rename(42 as unknown as string));
    expect([invalid.status, invalid.code]).toEqual([400, 'validation_failed']);
    expect(invalid.error).toEqual(expect.any(String));
  });
});

describe('endpoints (legacy)', () => {
  it('create, get, list, update, sendToEndpoint, delete', async () => {
    const created = await client.endpoints.create({ name: 'legacy', url: kit.receiver.url });
    expect(created.secret).toEqual(expect.any(String));
    expect((await client.endpoints.get(created.id)).endpoint.name).toBe('legacy');
    expect((await client.endpoints.list()).endpoints.map((e) => e.id)).toContain(created.id);
    expect((await client.endpoints.update(created.id, { enabled: false })).endpoint.enabled).toBe(false);
    await client.endpoints.update(created.id, { enabled: true });
    const sent = await client.sendToEndpoint(created.id, { legacy: true }, 'legacy.sent');
    expect(sent.status).toBe('QUEUED');
    expect((await client.events.get(sent.id)).event_type).toBe('legacy.sent');
    await expect(client.endpoints.delete(created.id)).resolves.toEqual({ deleted: true });
  });
});

describe('mailboxes', () => {
  it('send, list, get, claim, ack', async () => {
    const mailbox = await client.targets.create({ kind: 'mailbox', name: 'inbox' });
    const sent = await client.send(mailbox.target.id, { n: 7 }, { type: 'job' });
    expect(sent.status).toBe('UNREAD');
    const listed = await client.mailboxes.list(mailbox.target.id, { status: 'UNREAD' });
    expect(listed.messages.map((m) => m.id)).toEqual([sent.id]);
    expect((await client.mailboxes.get(sent.id)).message.payload).toEqual({ n: 7 });
    expect((await client.mailboxes.claim(sent.id)).message.state).toBe('CLAIMED');
    expect((await client.mailboxes.ack(sent.id)).message.state).toBe('ACKNOWLEDGED');
  });
});

describe('session-only routes', () => {
  it('billing status, invoices and reconciliation answer; checkout and portal 503 while disabled', async () => {
    expect((await session.billing.get()).billing_enabled).toBe(false);
    expect((await session.billing.invoices()).invoices).toEqual([]);
    expect((await session.billing.reconciliation()).local.accepted_events).toBeGreaterThanOrEqual(1);
    for (const call of [() => session.billing.checkout(), () => session.billing.portal()]) {
      const err = await refusal(call());
      expect([err.status, err.code]).toEqual([503, 'billing_disabled']);
    }
    const err = await refusal(client.billing.get());
    expect(err.status).toBe(401);
  });

  it('logout-all revokes the session; logout of a revoked session is 401', async () => {
    const again = await make({ apiKey: undefined }).auth.login({
      email: kit.ws.email,
      password: kit.ws.password,
    });
    const second = make({ apiKey: undefined, sessionToken: again.session_token });
    expect((await second.auth.logout()).logged_out).toBe(true);
    expect((await session.auth.logoutAll()).revoked_sessions).toBeGreaterThanOrEqual(1);
    expect((await refusal(session.auth.logout())).status).toBe(401);
  });
});

describe('coverage', () => {
  it('every operation of the document was called through a client method', () => {
    const template = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const missing = operations
      .filter(({ op }) => !NOT_FOR_CLIENTS.has(op))
      .filter(
        ({ method, path }) =>
          ![...seen].some(
            (s) => s.startsWith(`${method} `) && template(path).test(s.slice(method.length + 1)),
          ),
      )
      .map(({ op }) => op);
    expect(missing).toEqual([]);
  });
});
