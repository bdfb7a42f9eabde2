// Proves the dashboard's side of the local inbox against a small real HTTP control server standing in
// for it: /app/config says whether an inbox is configured and where targets reach it; every webhook
// signing secret the page creates (targets, endpoints, rotations) is registered with the inbox under
// its target's id, and nothing else is; an inbox that hangs or fails never delays or fails the page's
// request; /app/inbox lists and clears the inbox for a signed-in user only, and is 404 without one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  seedWorkspace,
  spawnService,
  startTestDashboard,
  type ServiceProcess,
  type TestDashboard,
  type TestWorkspace,
} from '@evds/testkit';
import { browser, signIn, type Browser } from './helpers.ts';

type Mode = 'ok' | 'hang' | 'fail';
interface Control {
  url: string;
  secrets: { label: string; secret: string }[];
  deletes: number;
  mode: Mode;
  server: Server;
}

const INBOX_URL = 'https://127.0.0.1:8443/hooks/demo';
const listed = [
  {
    id: 'req_1',
    received_at: 1_700_000_000_000,
    method: 'POST',
    path: '/hooks/demo',
    headers: { 'webhook-id': 'evt_1' },
    body: '{"a":1}',
    signature: { verified: true, signatures: 1, matched: 'tgt_1', detail: 'verified with tgt_1' },
  },
];

async function startControl(): Promise<Control> {
  const control = { secrets: [], deletes: 0, mode: 'ok' } as unknown as Control;
  control.server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (control.mode === 'hang') return;
      if (control.mode === 'fail') return res.writeHead(500).end();
      if (req.method === 'POST' && req.url === '/secrets') {
        control.secrets.push(JSON.parse(body) as { label: string; secret: string });
        return res.writeHead(204).end();
      }
      if (req.method === 'GET' && req.url === '/requests')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ requests: listed }));
      if (req.method === 'DELETE' && req.url === '/requests') {
        control.deletes++;
        return res.writeHead(204).end();
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => control.server.listen(0, '127.0.0.1', r));
  control.url = `http://127.0.0.1:${(control.server.address() as AddressInfo).port}`;
  return control;
}

let control: Control;
let t: TestDashboard;
let plain: ServiceProcess;
let call: Browser;
let ws: TestWorkspace;
let session: string;

beforeAll(async () => {
  control = await startControl();
  t = await startTestDashboard({
    dashboardEnv: { LOCAL_INBOX_CONTROL_URL: control.url, LOCAL_INBOX_URL: INBOX_URL },
  });
  plain = await spawnService('dashboard', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    API_URL: t.api.baseUrl,
  });
  call = browser(t.url);
  ws = await seedWorkspace(t.api.database.db);
  session = await signIn(call, ws);
});
afterAll(async () => {
  await plain?.kill();
  await t?.stop();
  control.server.closeAllConnections();
  await new Promise((r) => control.server.close(r));
});

/** Waits for the fire-and-forget registration to land (it is sent after the answer). */
async function registered(n: number): Promise<Control['secrets']> {
  for (let i = 0; i < 100 && control.secrets.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  return control.secrets;
}

describe('/app/config', () => {
  it('says whether an inbox is configured, and where targets reach it', async () => {
    expect((await call('/app/config')).body).toEqual({
      inbox: true,
      inbox_url: INBOX_URL,
      environment: 'test',
    });
    expect((await browser(plain.url)('/app/config')).body).toEqual({
      inbox: false,
      inbox_url: null,
      environment: 'test',
    });
  });
});

describe('signing secrets', () => {
  it('of new webhook targets, endpoints and rotations are registered under the target id; nothing else', async () => {
    control.secrets.length = 0;
    const target = await call<{ target: { id: string; secret: string } }>('/api/v1/targets', {
      session,
      body: { kind: 'webhook', name: 'Local inbox', url: `${INBOX_URL}` },
    });
    expect(target.status).toBe(201);
    expect(await registered(1)).toEqual([
      { label: target.body.target.id, secret: target.body.target.secret },
    ]);

    const endpoint = await call<{ id: string; secret: string }>('/api/v1/endpoints', {
      session,
      body: { name: 'Endpoint', url: 'https://127.0.0.1:8443/hooks/other' },
    });
    expect(endpoint.status).toBe(200);
    expect((await registered(2))[1]).toEqual({ label: endpoint.body.id, secret: endpoint.body.secret });

    const rotated = await call<{ secret: string }>(
      `/api/v1/targets/${target.body.target.id}/signing-secret/rotate`,
      {
        method: 'POST',
        session,
      },
    );
    expect(rotated.status).toBe(200);
    expect((await registered(3))[2]).toEqual({ label: target.body.target.id, secret: rotated.body.secret });
    expect(rotated.body.secret).not.toBe(target.body.target.secret);

    // A mailbox has no signing secret; a refused creation has none either.
    await call('/api/v1/targets', { session, body: { kind: 'mailbox', name: 'Box' } });
    await call('/api/v1/targets', { session, body: { kind: 'webhook', name: 'Bad', url: 'http://x' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(control.secrets).toHaveLength(3);
    for (const s of control.secrets) expect(s.secret).toMatch(/^whsec_/);
  });

  it.each(['hang', 'fail'] as Mode[])(
    'an inbox that %ss neither delays nor fails the request',
    async (mode) => {
      control.mode = mode;
      try {
        const started = performance.now();
        const res = await call('/api/v1/targets', {
          session,
          body: { kind: 'webhook', name: `While ${mode}`, url: INBOX_URL },
        });
        expect(res.status).toBe(201);
        expect(performance.now() - started).toBeLessThan(1500);
      } finally {
        control.mode = 'ok';
      }
    },
  );
});

describe('/app/inbox', () => {
  it('lists and clears the inbox for a signed-in user', async () => {
    const list = await call('/app/inbox', { session });
    expect({ status: list.status, body: list.body }).toEqual({ status: 200, body: { requests: listed } });
    const before = control.deletes;
    const cleared = await call('/app/inbox', { method: 'DELETE', session });
    expect(cleared.status).toBe(200);
    expect(control.deletes).toBe(before + 1);
  });

  it('is 401 without a session (or with a dead one), and 503 while the inbox fails', async () => {
    const none = await call('/app/inbox');
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    expect((await call('/app/inbox', { session: 'a'.repeat(64) })).status).toBe(401);
    const before = control.deletes;
    expect((await call('/app/inbox', { method: 'DELETE' })).status).toBe(401);
    expect(control.deletes).toBe(before);
    control.mode = 'fail';
    try {
      const down = await call('/app/inbox', { session });
      expect({ status: down.status, code: down.body.code }).toEqual({ status: 503, code: 'unavailable' });
    } finally {
      control.mode = 'ok';
    }
  });

  it('is 404 when no inbox is configured', async () => {
    const other = browser(plain.url);
    const s = await signIn(other, ws);
    for (const method of ['GET', 'DELETE']) {
      const res = await other('/app/inbox', { method, session: s });
      expect({ method, status: res.status, code: res.body.code }).toEqual({
        method,
        status: 404,
        code: 'not_found',
      });
    }
  });
});
