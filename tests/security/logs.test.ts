// Proves that no secret reaches a log line (decisions §5): api, ingest and the delivery worker run as
// processes at LOG_LEVEL=debug, so every line they can write is written, through a whole working day:
// logins right and wrong, keys created, revoked and misused, webhook targets created, secrets rotated,
// inbound signatures turned on, items ingested with right and wrong credentials and signatures,
// deliveries that succeed, fail with a 500 and fail to connect, replay, logout. Then every byte each
// process wrote is searched for every API key, session token, password, signing secret (whsec_ and
// its base64 part), inbound secret, encryption key and billing webhook secret the test made or set.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, randomBytes } from 'node:crypto';
import {
  createTestCa,
  seedWorkspace,
  startReceiver,
  startStack,
  type Receiver,
  type Stack,
  type TestCa,
  type TestResponse,
  type TestWorkspace,
} from '@evds/testkit';
import { createWebhookTarget, waitForStatus } from '../e2e/helpers.ts';

const encryptionKey = randomBytes(32).toString('base64');
const billingSecret = `bws_${randomBytes(24).toString('hex')}`;

let ca: TestCa;
let receiver: Receiver;
let stack: Stack;
let ws: TestWorkspace;
/** Every secret the scenario made or configured, by what it is. */
const secrets = new Map<string, string>();

function remember(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length < 8) throw new Error(`${name} is missing`);
  secrets.set(name, value);
  if (value.startsWith('whsec_')) secrets.set(`${name} (base64 part)`, value.slice('whsec_'.length));
  return value;
}

const expectStatus = (r: TestResponse, status: number) => {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  return r;
};

beforeAll(async () => {
  ca = await createTestCa();
  // /fail answers 500 every time; everything else 200.
  receiver = await startReceiver(ca.server, (req) =>
    req.path.startsWith('/fail') ? { status: 500, body: '{"error":"down"}' } : { status: 200 },
  );
  stack = await startStack({
    caFile: ca.caFile,
    env: {
      LOG_LEVEL: 'debug',
      ENCRYPTION_KEYS: `logs1:${encryptionKey}`,
      BILLING_WEBHOOK_SECRET: billingSecret,
      LOGIN_RATE_LIMIT: '100',
    },
  });
  ws = await seedWorkspace(stack.db);
  remember('encryption key', encryptionKey);
  remember('encryption key list', `logs1:${encryptionKey}`);
  remember('billing webhook secret', billingSecret);
  remember('provisioned API key', ws.apiKey);
  remember('password', ws.password);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function scenario(): Promise<void> {
  const { api, ingest } = stack;
  const key = ws.apiKey;

  // Sessions: right and wrong logins, a session used, then revoked.
  const wrongPassword = remember('wrong password', `wrong-${randomBytes(8).toString('hex')}`);
  expectStatus(await api('/api/v1/auth/login', { body: { email: ws.email, password: wrongPassword } }), 401);
  expectStatus(
    await api('/api/v1/auth/login', { body: { email: 'nobody@example.test', password: ws.password } }),
    401,
  );
  const login = async (name: string) =>
    remember(
      name,
      expectStatus(await api('/api/v1/auth/login', { body: { email: ws.email, password: ws.password } }), 200)
        .body.session_token,
    );
  const session = await login('session token');
  const doomed = await login('logged-out session token');
  expectStatus(await api('/api/v1/auth/me', { session }), 200);

  // Keys: created, one deleted then used, malformed and misplaced credentials everywhere.
  const newKey = async (name: string) => {
    const r = expectStatus(await api('/api/v1/keys', { session, body: { name } }), 201);
    return { id: r.body.id as string, key: remember(`API key "${name}"`, r.body.key) };
  };
  const producer = await newKey('producer');
  const revoked = await newKey('revoked');
  expectStatus(await api(`/api/v1/keys/${revoked.id}`, { method: 'DELETE', key }), 200);
  expectStatus(await api('/api/v1/orgs', { key: revoked.key }), 401);
  expectStatus(await api('/api/v1/orgs', { headers: { authorization: `Basic ${key}` } }), 401);
  expectStatus(await api(`/api/v1/orgs?api_key=${key}&token=${session}`, { key }), 200);
  expectStatus(await api('/api/v1/billing', { key }), 401);

  // Targets and secrets: created, rotated, inbound signatures on.
  const hook = await createWebhookTarget(stack, ws, `${receiver.url}/ok`);
  remember('webhook target secret', hook.secret);
  const endpoint = expectStatus(
    await api('/api/v1/endpoints', { key, body: { name: 'failing', url: `${receiver.url}/fail` } }),
    200,
  ).body;
  remember('endpoint secret', endpoint.secret);
  const unreachable = await createWebhookTarget(stack, ws, 'https://127.0.0.1:1/nobody');
  remember('unreachable target secret', unreachable.secret);
  const rotated = expectStatus(
    await api(`/api/v1/targets/${hook.id}/signing-secret/rotate`, { method: 'POST', session }),
    200,
  );
  remember('rotated secret', rotated.body.secret);
  const patched = expectStatus(
    await api(`/api/v1/endpoints/${endpoint.id as string}`, {
      method: 'PATCH',
      key,
      body: { verify_inbound_signatures: true },
    }),
    200,
  );
  const inbound = remember(
    'inbound secret',
    (patched.body.endpoint as { inbound_secret?: string }).inbound_secret,
  );

  // Ingestion with right and wrong credentials and signatures.
  const body = JSON.stringify({ event_type: 'order.created', id: 1 });
  const ts = Math.floor(Date.now() / 1000);
  const sign = (secret: string) => `v1=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
  const signed = (signature: string) => ({
    key: producer.key,
    body,
    headers: { 'x-service-timestamp': String(ts), 'x-service-signature': signature },
  });
  const delivered = expectStatus(await ingest(`/t/${hook.id}`, { key: producer.key, body }), 202);
  const failing = expectStatus(await ingest(`/e/${endpoint.id as string}`, signed(sign(inbound))), 202);
  const refused = expectStatus(await ingest(`/t/${unreachable.id}`, { key, body }), 202);
  expectStatus(await ingest(`/e/${endpoint.id as string}`, signed(sign('not-the-secret'))), 403);
  expectStatus(await ingest(`/e/${endpoint.id as string}`, { key: producer.key, body }), 403);
  expectStatus(await ingest(`/t/${hook.id}`, { key: revoked.key, body }), 401);
  expectStatus(
    await ingest(`/t/${hook.id}`, { key: `evds_sk_${randomBytes(32).toString('hex')}`, body }),
    401,
  );
  expectStatus(await ingest(`/t/${hook.id}`, { session, body }), 401);
  expectStatus(await ingest(`/t/${hook.id}`, { headers: { authorization: `Token ${key}` }, body }), 401);
  expectStatus(await ingest(`/t/${hook.id}?key=${producer.key}`, { key: producer.key, body }), 202);

  // Deliveries: one succeeds, one fails with 500 to the end, one cannot connect.
  const first = await waitForStatus(stack, ws, delivered.body.id as string, 'DELIVERED');
  expectStatus(await api(`/api/v1/events/${first.id}/replay`, { method: 'POST', key }), 200);
  await waitForStatus(stack, ws, failing.body.id as string, 'EXPIRED', 30_000);
  await waitForStatus(stack, ws, refused.body.id as string, 'EXPIRED', 30_000);
  expectStatus(
    await api(`/api/v1/targets/${hook.id}/signing-secret/previous`, { method: 'DELETE', key }),
    200,
  );

  // Sessions end.
  expectStatus(await api('/api/v1/auth/logout', { method: 'POST', session: doomed }), 200);
  expectStatus(await api('/api/v1/auth/me', { session: doomed }), 401);
  expectStatus(await api('/api/v1/auth/logout-all', { method: 'POST', session }), 200);
}

describe('the logs of a whole scenario at debug level', () => {
  it('hold no secret the scenario made or configured', async () => {
    await scenario();
    // Stopped gracefully, so shutdown lines are in the output too.
    for (const p of stack.processes.values()) await p.kill('SIGTERM');

    const outputs = [...stack.processes.values()].map((p) => ({ name: p.name, text: p.output.join('') }));
    expect(outputs.map((o) => o.name).sort()).toEqual(['api', 'delivery-worker', 'ingest']);
    // The search means something only if the processes did log what happened.
    for (const o of outputs) expect(o.text.split('\n').length).toBeGreaterThan(5);
    expect(outputs.find((o) => o.name === 'delivery-worker')?.text).toContain('delivery attempt');
    expect(outputs.find((o) => o.name === 'ingest')?.text).toContain('/t/');

    expect(secrets.size).toBeGreaterThanOrEqual(18);
    const leaks = outputs.flatMap((o) =>
      [...secrets]
        .filter(([, value]) => o.text.includes(value))
        .map(([name]) => `${o.name} logged the ${name}`),
    );
    expect(leaks).toEqual([]);
  }, 120_000);
});
