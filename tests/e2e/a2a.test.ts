// Proves a2a targets end to end against a real A2A v1.0 agent built with @a2a-js/sdk (its
// DefaultRequestHandler, InMemoryTaskStore and HTTP+JSON restHandler) over HTTPS with a test CA on
// 127.0.0.1, every evds service a process of its own. Creating a target reads the Agent Card through
// the network policy and keeps its first usable HTTP+JSON 1.x interface (shown with card_fetched_at;
// the bearer token sealed and never shown); pre-1.0 cards, JSON-RPC-only cards, http interfaces,
// redirects, oversize or non-JSON cards, unreachable URLs and refused addresses are 422s that say why.
// `/t/` puts an a2a item in the a2a queue (QUEUED, one usage record) and the a2a worker hands it to the
// agent as exactly the v1.0 SendMessageRequest (A2A-Version 1.0, bearer token, messageId = event id,
// the accepted bytes as the data part), recording the agent's task id and state on the attempt. A retry
// reuses the messageId; VERSION_NOT_SUPPORTED, 500s and time-outs walk the schedule to EXPIRED with the
// reason recorded; a 404 triggers one card refresh and the next attempt follows the card; replay works
// as for webhooks; the refresh route replaces the interface (reusing the ETag), refuses other kinds
// (400) and other organizations' ids (404).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AgentCard, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { createProducer, createRedis, type Producer, type Redis } from '@evds/queue';
import {
  createTestCa,
  seedWorkspace,
  startStack,
  type Stack,
  type TestCa,
  type TestWorkspace,
} from '@evds/testkit';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createWebhookTarget, usageCount, waitForStatus, type EventView } from './helpers.ts';

// ---- the agent -----------------------------------------------------------------------------------

interface Captured {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}
interface Executed {
  taskId: string;
  messageId: string;
  role: Role;
  tenant: string | undefined;
  part: unknown;
}
interface CardAnswer {
  status?: number;
  body: string;
  headers?: Record<string, string>;
  /** Sent in pieces without a content-length, so only the running byte count can stop it. */
  chunked?: boolean;
}

const captured: Captured[] = [];
const executed: Executed[] = [];
const cards = new Map<string, CardAnswer>();
const cardRequests: Captured[] = [];
/** How many calls each messageId made to the flaky interface. */
const flakyCalls = new Map<string, number>();
let agentServer: Server;
let agentUrl: string;

const ifaceEntry = (path: string, extra: Record<string, unknown> = {}) => ({
  url: `${agentUrl}${path}`,
  protocolBinding: 'HTTP+JSON',
  protocolVersion: '1.0',
  ...extra,
});

/** A v1.0 Agent Card as protobuf-JSON, served by hand (a2a.md says why). */
function v1Card(interfaces: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Test agent',
    description: 'Receives evds items',
    version: '0.0.1',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [{ id: 'intake', name: 'intake', description: 'takes items', tags: ['evds'] }],
    supportedInterfaces: interfaces,
    ...extra,
  };
}

const setCard = (name: string, card: unknown, extra: Omit<CardAnswer, 'body'> = {}) =>
  cards.set(name, { body: typeof card === 'string' ? card : JSON.stringify(card), ...extra });
const cardUrl = (name: string) => `${agentUrl}/cards/${name}.json`;

async function startAgent(ca: TestCa): Promise<void> {
  const executor: AgentExecutor = {
    execute: (ctx: RequestContext, bus) => {
      const m = ctx.userMessage;
      executed.push({
        taskId: ctx.taskId,
        messageId: m.messageId,
        role: m.role,
        tenant: ctx.context.tenant,
        part: m.parts[0],
      });
      bus.publish(
        AgentEvent.task({
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          artifacts: [],
          history: [m],
          metadata: undefined,
        }),
      );
      bus.publish(
        AgentEvent.statusUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state: TaskState.TASK_STATE_COMPLETED,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
      bus.finished();
      return Promise.resolve();
    },
    cancelTask: () => Promise.resolve(),
  };
  // The handler checks the requested version against this card's HTTP+JSON interfaces.
  const sdkCard = AgentCard.fromJSON(
    v1Card([{ url: `https://127.0.0.1/`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }]),
  );
  const requestHandler = new DefaultRequestHandler(sdkCard, new InMemoryTaskStore(), executor);
  const rest = restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication });

  const app = express();
  app.get('/cards/:file', (req: Request, res: Response) => {
    cardRequests.push({ path: req.path, headers: req.headers, raw: '' });
    const answer = cards.get(String(req.params.file).replace(/\.json$/, ''));
    if (!answer) return void res.status(404).json({ error: 'no such card' });
    const etag = answer.headers?.etag;
    if (etag && req.headers['if-none-match'] === etag) return void res.status(304).end();
    res.status(answer.status ?? 200).set({ 'content-type': 'application/json', ...answer.headers });
    if (!answer.chunked) return void res.end(answer.body);
    for (let i = 0; i < answer.body.length; i += 16 * 1024) res.write(answer.body.slice(i, i + 16 * 1024));
    res.end();
  });
  // Every message reaches this capture first, byte for byte; the SDK then gets the parsed body.
  app.use(
    express.raw({ type: () => true, limit: '5mb' }),
    (req: Request, _res: Response, next: NextFunction) => {
      const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      captured.push({ path: req.path, headers: { ...req.headers }, raw });
      try {
        req.body = raw ? (JSON.parse(raw) as unknown) : {};
      } catch {
        req.body = {};
      }
      next();
    },
  );
  app.use('/broken', (_req: Request, res: Response) => void res.status(500).json({ error: 'always down' }));
  app.use('/slow', () => {
    /* never answers: the worker's time-out ends the attempt */
  });
  app.use('/flaky', (req: Request, res: Response, next: NextFunction) => {
    const id = (req.body as { message?: { messageId?: string } }).message?.messageId ?? '';
    const n = (flakyCalls.get(id) ?? 0) + 1;
    flakyCalls.set(id, n);
    if (n === 1) return void res.status(500).json({ error: 'first call fails' });
    next();
  });
  // An agent that sees no A2A-Version header: the SDK itself answers 400 VERSION_NOT_SUPPORTED.
  app.use('/unversioned', (req: Request, _res: Response, next: NextFunction) => {
    delete req.headers['a2a-version'];
    next();
  });
  app.use(['/ok', '/flaky', '/unversioned', '/tenanted', '/new-home', '/second'], rest);

  agentServer = createServer({ key: ca.server.key, cert: ca.server.cert }, app);
  await new Promise<void>((resolve) => agentServer.listen(0, '127.0.0.1', resolve));
  agentUrl = `https://127.0.0.1:${(agentServer.address() as AddressInfo).port}`;
}

// ---- the stack -------------------------------------------------------------------------------------

let ca: TestCa;
let stack: Stack;
let ws: TestWorkspace;
let other: TestWorkspace;
let redis: Redis;
let producer: Producer;

beforeAll(async () => {
  ca = await createTestCa();
  await startAgent(ca);
  // The a2a worker is started by the first test, once it has seen the job wait in the a2a queue.
  stack = await startStack({ caFile: ca.caFile, env: { DELIVERY_TIMEOUT_MS: '1000' } });
  ws = await seedWorkspace(stack.db);
  other = await seedWorkspace(stack.db);
  redis = createRedis(stack.env.REDIS_URL ?? '', { role: 'client' });
  producer = createProducer(redis, stack.env.REDIS_PREFIX ?? '');
}, 60_000);
afterAll(async () => {
  await producer?.close();
  redis?.disconnect();
  await stack?.stop();
  agentServer?.closeAllConnections();
  await new Promise((resolve) => agentServer?.close(resolve));
});

interface A2aTarget {
  id: string;
  kind: 'a2a';
  url: string | null;
  agent_card_url: string;
  interface: { url: string; binding: string; version: string; tenant?: string } | null;
  card_fetched_at: number | null;
  auth: { type: string };
}
type A2aEvent = EventView & {
  delivery_attempts: (EventView['delivery_attempts'][number] & {
    a2a_task_id: string | null;
    a2a_task_state: string | null;
  })[];
};

const createA2a = (body: Record<string, unknown>, key = ws.apiKey) =>
  stack.api<{ target: A2aTarget; warnings?: string[]; error?: string; code?: string }>('/api/v1/targets', {
    key,
    body: { kind: 'a2a', name: 'agent', auth: { type: 'none' }, ...body },
  });

async function a2aTarget(card: string, auth: Record<string, unknown> = { type: 'none' }): Promise<A2aTarget> {
  const r = await createA2a({ agent_card_url: cardUrl(card), auth });
  if (r.status !== 201) throw new Error(`a2a target creation answered ${r.status}: ${r.text}`);
  return r.body.target;
}

const send = (targetId: string, body: string) =>
  stack.ingest<{ id: string; target_id: string; kind: string; status: string }>(`/t/${targetId}`, {
    key: ws.apiKey,
    body,
  });

const waitA2a = (id: string, status: string, timeoutMs?: number) =>
  waitForStatus(stack, ws, id, status, timeoutMs) as Promise<A2aEvent>;

const messagesOf = (eventId: string) =>
  captured.filter(
    (c) => (JSON.parse(c.raw || '{}') as { message?: { messageId?: string } }).message?.messageId === eventId,
  );

// ---- tests -------------------------------------------------------------------------------------------

describe('an a2a item', () => {
  it('is accepted into the a2a queue and handed to the agent as the exact v1.0 message', async () => {
    setCard('main', v1Card([ifaceEntry('/ok')]));
    const before = Math.floor(Date.now() / 1000);
    const created = await createA2a({
      agent_card_url: cardUrl('main'),
      auth: { type: 'bearer', token: 'agent-token-7f3a' },
    });
    expect(created.status).toBe(201);
    const target = created.body.target;
    expect(target).toMatchObject({
      kind: 'a2a',
      url: `${agentUrl}/ok`,
      agent_card_url: cardUrl('main'),
      interface: { url: `${agentUrl}/ok`, binding: 'HTTP+JSON', version: '1.0' },
      auth: { type: 'bearer' },
    });
    expect(target.card_fetched_at).toBeGreaterThanOrEqual(before);
    expect(created.body.warnings).toEqual([]);
    expect(created.text).not.toContain('agent-token-7f3a');
    const got = await stack.api<{ target: A2aTarget }>(`/api/v1/targets/${target.id}`, { key: ws.apiKey });
    expect(got.body.target).toEqual(target);
    expect(got.text).not.toContain('agent-token-7f3a');
    const row = await stack.db
      .selectFrom('targets')
      .select(['a2a_auth_token', 'a2a_auth_type'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.a2a_auth_type).toBe('bearer');
    expect(row.a2a_auth_token).toMatch(/^v2\./);
    expect(row.a2a_auth_token).not.toContain('agent-token-7f3a');

    const usageBefore = await usageCount(stack, ws.orgId);
    const body =
      '{"zeta":1,  "alpha":"ünïcödé ✓","big":12345678901234567890123,"n":1.50,"nested":{"b":[1,2]}}';
    const r = await send(target.id, body);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      target_id: target.id,
      kind: 'a2a',
      status: 'QUEUED',
    });
    expect(await usageCount(stack, ws.orgId)).toBe(usageBefore + 1);
    // No a2a worker yet: the job waits in the a2a queue, never in the webhook one.
    expect(await producer.queue('a2a').getJobState(r.body.id)).toMatch(/^(waiting|prioritized)$/);
    expect(await producer.queue('webhook').getJobState(r.body.id)).toBe('unknown');
    expect((await waitA2a(r.body.id, 'QUEUED')).delivery_attempts).toEqual([]);

    await stack.start('a2a-worker');
    const event = await waitA2a(r.body.id, 'DELIVERED');
    const [req, ...more] = messagesOf(r.body.id);
    expect(more).toEqual([]);
    expect(req?.path).toBe('/ok/message:send');
    expect(req?.headers).toMatchObject({
      'a2a-version': '1.0',
      'content-type': 'application/json',
      accept: 'application/a2a+json, application/json',
      authorization: 'Bearer agent-token-7f3a',
    });
    expect(req?.raw).toBe(
      `{"message":{"messageId":"${r.body.id}","role":"ROLE_USER","parts":[{"data":${body},` +
        '"mediaType":"application/json"}]},"configuration":{"returnImmediately":true}}',
    );
    const sent = JSON.parse(req?.raw ?? '{}') as { message: { parts: { data: unknown }[] } };
    expect(sent.message.parts[0]?.data).toEqual(JSON.parse(body));

    // What the SDK made of it: a user message with our id and the data part, run as a task.
    const run = executed.find((e) => e.messageId === r.body.id);
    expect(run).toMatchObject({
      role: Role.ROLE_USER,
      part: { content: { $case: 'data', value: JSON.parse(body) as unknown } },
    });
    for (const p of stack.processes.values()) expect(p.output.join('')).not.toContain('agent-token-7f3a');
    expect(event.delivery_attempts).toHaveLength(1);
    expect(event.delivery_attempts[0]).toMatchObject({
      attempt_number: 1,
      status_code: 200,
      error: null,
      a2a_task_id: run?.taskId,
      a2a_task_state: expect.stringMatching(/^TASK_STATE_(SUBMITTED|WORKING|COMPLETED)$/),
    });
  });

  it('goes to the tenant path with the tenant in the body', async () => {
    setCard('tenant', v1Card([ifaceEntry('/tenanted/', { tenant: 'acme' })]));
    const target = await a2aTarget('tenant');
    expect(target.interface).toEqual({
      url: `${agentUrl}/tenanted/`,
      binding: 'HTTP+JSON',
      version: '1.0',
      tenant: 'acme',
    });
    const r = await send(target.id, '{"t":1}');
    await waitA2a(r.body.id, 'DELIVERED');
    const [req] = messagesOf(r.body.id);
    expect(req?.path).toBe('/tenanted/acme/message:send');
    expect((JSON.parse(req?.raw ?? '{}') as { tenant?: string }).tenant).toBe('acme');
    expect(req?.headers.authorization).toBeUndefined();
    expect(executed.find((e) => e.messageId === r.body.id)?.tenant).toBe('acme');
  });

  it('is retried with the same messageId after a 500, then delivered', async () => {
    setCard('flaky', v1Card([ifaceEntry('/flaky')]));
    const target = await a2aTarget('flaky');
    const r = await send(target.id, '{"retry":true}');
    const event = await waitA2a(r.body.id, 'DELIVERED');
    expect(event.delivery_attempts.map((a) => a.status_code)).toEqual([500, 200]);
    expect(event.delivery_attempts[1]?.a2a_task_id).toEqual(
      executed.find((e) => e.messageId === r.body.id)?.taskId,
    );
    const calls = messagesOf(r.body.id);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.raw).toBe(calls[0]?.raw);
  });

  it('replays as a new item with its own messageId', async () => {
    const target = await a2aTarget('main');
    const r = await send(target.id, '{"replay":1}');
    await waitA2a(r.body.id, 'DELIVERED');
    const replay = await stack.api<{ id: string; status: string; source_event_id: string }>(
      `/api/v1/events/${r.body.id}/replay`,
      { method: 'POST', key: ws.apiKey },
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ status: 'QUEUED', source_event_id: r.body.id });
    const event = await waitA2a(replay.body.id, 'DELIVERED');
    expect(event.source_event_id).toBe(r.body.id);
    const [req] = messagesOf(replay.body.id);
    expect(
      (JSON.parse(req?.raw ?? '{}') as { message: { parts: { data: unknown }[] } }).message.parts[0]?.data,
    ).toEqual({
      replay: 1,
    });
  });

  it('follows the card after a 404: one refresh, and the next attempt goes to the new interface', async () => {
    setCard('moving', v1Card([ifaceEntry('/old-home')]));
    const target = await a2aTarget('moving');
    setCard('moving', v1Card([ifaceEntry('/new-home')]));
    const fetchesBefore = cardRequests.filter((c) => c.path === '/cards/moving.json').length;
    const r = await send(target.id, '{"moved":true}');
    const event = await waitA2a(r.body.id, 'DELIVERED');
    expect(event.delivery_attempts.map((a) => a.status_code)).toEqual([404, 200]);
    expect(event.delivery_attempts[0]?.error).toMatch(
      /answered 404; Agent Card refreshed, next attempt goes to .*\/new-home/,
    );
    expect(messagesOf(r.body.id).map((c) => c.path)).toEqual([
      '/old-home/message:send',
      '/new-home/message:send',
    ]);
    expect(cardRequests.filter((c) => c.path === '/cards/moving.json').length).toBe(fetchesBefore + 1);
    const now = await stack.api<{ target: A2aTarget }>(`/api/v1/targets/${target.id}`, { key: ws.apiKey });
    expect(now.body.target.interface?.url).toBe(`${agentUrl}/new-home`);
  });
});

describe('agent errors walk the retry schedule to EXPIRED', () => {
  it.each([
    ['VERSION_NOT_SUPPORTED (400)', '/unversioned', 400, /^VERSION_NOT_SUPPORTED: /],
    ['a 500', '/broken', 500, null],
    ['a time-out', '/slow', null, /timeout|timed out|ETIMEDOUT/i],
  ])(
    '%s',
    async (_name, path, status, error) => {
      const name = `err${path.replace('/', '-')}`;
      setCard(name, v1Card([ifaceEntry(path)]));
      const target = await a2aTarget(name);
      const r = await send(target.id, '{"doomed":true}');
      const event = await waitA2a(r.body.id, 'EXPIRED', 40_000);
      expect(event.delivery_attempts).toHaveLength(6);
      for (const a of event.delivery_attempts) {
        expect(a.status_code).toBe(status);
        expect(a.a2a_task_id).toBeNull();
        if (error) expect(a.error).toMatch(error);
      }
      const ids = new Set(messagesOf(r.body.id).map((c) => c.raw));
      expect(ids.size).toBe(1);
    },
    60_000,
  );
});

describe('creating an a2a target refuses a card it cannot use (422, saying why)', () => {
  const huge = 'x'.repeat(300 * 1024);
  it.each([
    [
      'a v0.3 card',
      () =>
        setCard('v03', {
          name: 'old',
          url: `${agentUrl}/ok`,
          preferredTransport: 'JSONRPC',
          additionalInterfaces: [],
          protocolVersion: '0.3.0',
        }),
      'v03',
      /pre-1\.0 card/,
    ],
    [
      'a card with only JSON-RPC',
      () => setCard('rpc', v1Card([ifaceEntry('/rpc', { protocolBinding: 'JSONRPC' })])),
      'rpc',
      /no usable A2A v1 HTTP\+JSON interface.*binding JSONRPC is not HTTP\+JSON/,
    ],
    [
      'an http interface URL',
      () => setCard('plain', v1Card([{ ...ifaceEntry('/ok'), url: `http://127.0.0.1:1/ok` }])),
      'plain',
      /no usable .*is not https/,
    ],
    [
      'an interface on a refused address',
      () => setCard('private', v1Card([{ ...ifaceEntry('/ok'), url: 'https://10.0.0.1/a2a' }])),
      'private',
      /refused by the network policy/,
    ],
    [
      'a redirect',
      () => setCard('moved', '', { status: 302, headers: { location: cardUrl('main') } }),
      'moved',
      /redirect \(HTTP 302 to .*\); redirects are not followed/,
    ],
    [
      'an oversize card',
      () => setCard('huge', v1Card([ifaceEntry('/ok')], { description: huge })),
      'huge',
      /larger than 256 KiB/,
    ],
    [
      'an oversize card sent without a length',
      () => setCard('hugechunks', v1Card([ifaceEntry('/ok')], { description: huge }), { chunked: true }),
      'hugechunks',
      /larger than 256 KiB/,
    ],
    ['a body that is not JSON', () => setCard('html', '<html>hello</html>'), 'html', /not valid JSON/],
    [
      'a card URL answering 404',
      () => undefined,
      'missing',
      /could not be fetched: the URL answered HTTP 404/,
    ],
  ])('%s', async (_name, arrange, card, message) => {
    arrange();
    const before = (await stack.api<{ targets: unknown[] }>('/api/v1/targets', { key: ws.apiKey })).body
      .targets.length;
    const r = await createA2a({ agent_card_url: cardUrl(card) });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('unprocessable');
    expect(r.body.error).toMatch(/^agent_card_url: /);
    expect(r.body.error).toMatch(message);
    expect(
      (await stack.api<{ targets: unknown[] }>('/api/v1/targets', { key: ws.apiKey })).body.targets,
    ).toHaveLength(before);
  });

  it('does not follow the redirect', async () => {
    setCard('moved2', '', { status: 301, headers: { location: cardUrl('followed') } });
    setCard('followed', v1Card([ifaceEntry('/ok')]));
    expect((await createA2a({ agent_card_url: cardUrl('moved2') })).status).toBe(422);
    expect(cardRequests.some((c) => c.path === '/cards/followed.json')).toBe(false);
  });

  it('a card URL nothing listens on', async () => {
    const r = await createA2a({ agent_card_url: 'https://127.0.0.1:1/.well-known/agent-card.json' });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/^agent_card_url: the Agent Card could not be fetched: .*ECONNREFUSED/);
  });

  it('a card URL on a refused address, refused before any connection', async () => {
    const r = await createA2a({ agent_card_url: 'https://10.0.0.1/.well-known/agent-card.json' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      code: 'url_refused',
      error: 'agent_card_url: refused by the network policy: address 10.0.0.1 is not public (private)',
    });
  });

  it('creates with a warning when the card asks for auth the target does not send', async () => {
    setCard(
      'secured',
      v1Card([ifaceEntry('/ok')], {
        securitySchemes: { token: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { token: { list: [] } } }],
      }),
    );
    const r = await createA2a({ agent_card_url: cardUrl('secured') });
    expect(r.status).toBe(201);
    expect(r.body.warnings).toEqual([
      expect.stringMatching(/requires authentication \(token\) but auth.type is "none"/),
    ]);
  });
});

describe('POST /api/v1/targets/:id/refresh', () => {
  it('replaces the interface from the card, reusing the ETag when nothing changed', async () => {
    setCard('switch', v1Card([ifaceEntry('/ok')]), { headers: { etag: '"v1"' } });
    const target = await a2aTarget('switch');
    setCard('switch', v1Card([ifaceEntry('/rpc', { protocolBinding: 'JSONRPC' }), ifaceEntry('/second')]), {
      headers: { etag: '"v2"' },
    });
    const r = await stack.api<{ target: A2aTarget; warnings: string[] }>(
      `/api/v1/targets/${target.id}/refresh`,
      {
        method: 'POST',
        key: ws.apiKey,
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.target).toMatchObject({
      id: target.id,
      url: `${agentUrl}/second`,
      interface: { url: `${agentUrl}/second` },
    });
    expect(r.body.target.card_fetched_at).toBeGreaterThanOrEqual(target.card_fetched_at ?? 0);
    expect(cardRequests.at(-1)?.headers['if-none-match']).toBe('"v1"');

    const again = await stack.api<{ target: A2aTarget }>(`/api/v1/targets/${target.id}/refresh`, {
      method: 'POST',
      key: ws.apiKey,
    });
    expect(again.status).toBe(200);
    expect(cardRequests.at(-1)?.headers['if-none-match']).toBe('"v2"');
    expect(again.body.target.interface?.url).toBe(`${agentUrl}/second`);

    const item = await send(target.id, '{"after":"refresh"}');
    await waitA2a(item.body.id, 'DELIVERED');
    expect(messagesOf(item.body.id)[0]?.path).toBe('/second/message:send');
  });

  it('keeps the interface when the card has become unusable (422)', async () => {
    setCard('decays', v1Card([ifaceEntry('/ok')]));
    const target = await a2aTarget('decays');
    setCard('decays', { name: 'old', url: `${agentUrl}/ok`, protocolVersion: '0.3.0' });
    const r = await stack.api(`/api/v1/targets/${target.id}/refresh`, { method: 'POST', key: ws.apiKey });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/pre-1\.0 card/);
    const now = await stack.api<{ target: A2aTarget }>(`/api/v1/targets/${target.id}`, { key: ws.apiKey });
    expect(now.body.target.interface).toEqual(target.interface);
  });

  it('answers 400 wrong_target_kind for a webhook target and 404 for other organizations and unknown ids', async () => {
    const hook = await createWebhookTarget(stack, ws, `${agentUrl}/hook`);
    const wrong = await stack.api(`/api/v1/targets/${hook.id}/refresh`, { method: 'POST', key: ws.apiKey });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('wrong_target_kind');

    const mine = await a2aTarget('main');
    const foreign = await stack.api(`/api/v1/targets/${mine.id}/refresh`, {
      method: 'POST',
      key: other.apiKey,
    });
    expect(foreign.status).toBe(404);
    const unknown = await stack.api(`/api/v1/targets/${'0'.repeat(32)}/refresh`, {
      method: 'POST',
      key: ws.apiKey,
    });
    expect(unknown.status).toBe(404);
  });
});
