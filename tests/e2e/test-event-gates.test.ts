// Proves that POST /api/v1/targets/:id/test is gated as ingestion, against the API and ingest as processes
// of their own: 402 word for word for a billing-blocked (suspended or pending) workspace, 409
// target_disabled, 429 with Retry-After once the target's ingest window is full (the test counts in it,
// shared with ingestion), 404 for another organization's, a deleted or an unknown target; malformed
// JSON, wrong types, unknown fields, a payload over the target's max_payload_bytes, a body over the
// API's limit, another content type and no credential are refused. No refusal writes a row.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setBillingStatus } from '@evds/db';
import { newId } from '@evds/domain';
import { seedWorkspace, startStack, type Stack, type TestWorkspace } from '@evds/testkit';
import { itemRows, mailboxTarget as newMailbox, sendTest as send } from './test-event-kit.ts';

const WINDOW = 4;
const BILLING_BLOCKED = 'ingestion is blocked while billing is pending or suspended';

let stack: Stack;
let ws: TestWorkspace;

beforeAll(async () => {
  stack = await startStack({
    env: { INGEST_RATE_LIMIT: String(WINDOW), INGEST_RATE_WINDOW_SECONDS: '60' },
    services: ['api', 'ingest'],
  });
  ws = await seedWorkspace(stack.db, { billingStatus: 'active' });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const sendTest = (target: string, opts: Parameters<typeof send>[3] = {}, w = ws) =>
  send(stack, w, target, opts);
const rows = (w: TestWorkspace = ws) => itemRows(stack, w);
const mailboxTarget = (w: TestWorkspace = ws) => newMailbox(stack, w);

describe('the gates', () => {
  it.each(['suspended', 'pending'] as const)(
    'answers 402 word for word while billing is %s',
    async (status) => {
      const w = await seedWorkspace(stack.db, { billingStatus: 'active' });
      const target = await mailboxTarget(w);
      await setBillingStatus(stack.db, w.orgId, status);
      const counts = await rows(w);
      const r = await sendTest(target, {}, w);
      expect([r.status, r.body]).toEqual([402, { error: BILLING_BLOCKED, code: 'payment_required' }]);
      expect(await rows(w)).toEqual(counts);
    },
  );

  it('answers 409 target_disabled for a disabled target', async () => {
    const target = await mailboxTarget();
    const off = await stack.api(`/api/v1/targets/${target}`, {
      method: 'PATCH',
      key: ws.apiKey,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    const counts = await rows();
    const r = await sendTest(target);
    expect([r.status, r.body]).toEqual([409, { error: 'the target is disabled', code: 'target_disabled' }]);
    expect(await rows()).toEqual(counts);
  });

  it("counts in the target's ingest window, shared with ingestion: 429 with Retry-After once it is full", async () => {
    const target = await mailboxTarget();
    for (let i = 0; i < WINDOW - 1; i++) expect((await sendTest(target)).status).toBe(202);
    expect((await stack.ingest(`/t/${target}`, { key: ws.apiKey, body: { n: 1 } })).status).toBe(202);
    const counts = await rows();
    for (const r of [
      await sendTest(target),
      await stack.ingest(`/t/${target}`, { key: ws.apiKey, body: { n: 2 } }),
    ]) {
      expect([r.status, r.body]).toEqual([
        429,
        { error: 'rate limit exceeded for this endpoint', code: 'rate_limited' },
      ]);
      const wait = Number(r.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    expect(await rows()).toEqual(counts);
  });

  it("answers 404 for another organization's target, a deleted one and an unknown id", async () => {
    const other = await seedWorkspace(stack.db, { billingStatus: 'active' });
    const theirs = await mailboxTarget(other);
    const gone = await mailboxTarget();
    expect((await stack.api(`/api/v1/targets/${gone}`, { method: 'DELETE', key: ws.apiKey })).status).toBe(
      200,
    );
    const counts = [await rows(), await rows(other)];
    for (const id of [theirs, gone, newId(), 'not-an-id']) {
      const r = await sendTest(id);
      expect([id, r.status, r.body.code]).toEqual([id, 404, 'not_found']);
    }
    expect([await rows(), await rows(other)]).toEqual(counts);
    // The owner may.
    expect((await sendTest(theirs, {}, other)).status).toBe(202);
  });
});

describe('bad requests', () => {
  it('refuses malformed JSON, wrong types, unknown fields and oversize payloads, writing nothing', async () => {
    const target = await mailboxTarget();
    await stack.db.updateTable('targets').set({ max_payload_bytes: 300 }).where('id', '=', target).execute();
    const counts = await rows();
    const cases: [unknown, number, string, RegExp][] = [
      ['{"event_type": ', 400, 'invalid_json', /not valid JSON/],
      ['[]', 400, 'validation_failed', /body/],
      [{ event_type: 5 }, 400, 'validation_failed', /^event_type/],
      [{ event_type: '' }, 400, 'validation_failed', /^event_type/],
      [{ event_type: 'a\u0001b' }, 400, 'validation_failed', /^event_type/],
      [{ event_type: 'x'.repeat(201) }, 400, 'validation_failed', /^event_type/],
      [{ payload: [1, 2] }, 400, 'validation_failed', /^payload/],
      [{ payload: 'text' }, 400, 'validation_failed', /^payload/],
      [{ extra: true }, 400, 'validation_failed', /extra/],
      [{ payload: { blob: 'x'.repeat(400) } }, 413, 'payload_too_large', /max_payload_bytes \(300\)/],
      [{ payload: { blob: 'x'.repeat(2 * 1024 * 1024) } }, 413, 'payload_too_large', /.+/],
    ];
    for (const [body, status, code, message] of cases) {
      const r = await sendTest(target, { body });
      const what = typeof body === 'string' ? body : JSON.stringify(body).slice(0, 40);
      expect([what, r.status, r.body.code]).toEqual([what, status, code]);
      expect(String(r.body.error)).toMatch(message);
    }
    const text = await sendTest(target, { body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body.code]).toEqual([415, 'unsupported_media_type']);
    const none = await stack.api(`/api/v1/targets/${target}/test`, { method: 'POST' });
    expect([none.status, none.body.code]).toEqual([401, 'unauthenticated']);
    expect(await rows()).toEqual(counts);
  });
});
