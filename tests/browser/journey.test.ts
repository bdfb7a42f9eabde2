// A newcomer's whole journey through the dashboard in a real Chromium, every service a process of its
// own: sign in through the form; create a webhook (on the local inbox URL, its whsec_ secret shown once
// with Copy), a mailbox and an A2A agent, each found in Postgres and in the list; a URL the network
// policy refuses shows the API's reason and creates nothing; a test event is followed to DELIVERED with
// its attempt and "test" badge and writes no usage (ledger and /api/v1/usage); the Inbox page and the
// official `standardwebhooks` package both verify the delivery with the secret the page showed; a replay
// is delivered and verified again; after a rotation a delivery carries two signatures, each verifying
// with its own secret; an item ingested with the API key is read on the Mailboxes page byte for byte;
// an API key is created (it works), deleted (it stops working), and the last key's guard is shown.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  createTargetThroughForm,
  goTo,
  heading1,
  inboxRequestFor,
  inboxRequests,
  openTarget,
  readClipboard,
  screenshot,
  sendTestEvent,
  startBrowserStack,
  type BrowserStack,
} from './stack.ts';

// Each step drives a browser through several pages and waits on real deliveries.
jest.setTimeout(60_000);
const WHSEC = /^whsec_[A-Za-z0-9+/]+=*$/;
type Usage = { usage: { accepted_events: number } };

let s: BrowserStack;
let context: BrowserContext;
let page: Page;
const ids = { webhook: '', mailbox: '' };
let secret = '';
let firstEvent = '';

beforeAll(async () => {
  s = await startBrowserStack();
  // Clipboard permissions let the test read back what "Copy" put there.
  context = await s.browser.newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
});
afterAll(async () => {
  await context?.close();
  await s?.stop();
});

const h1 = (name: string) => heading1(page, name);
const nav = (link: string) => goTo(page, link);
const targetRows = () =>
  s.stack.db
    .selectFrom('targets')
    .select(['id', 'kind', 'name', 'url', 'agent_card_url', 'a2a_auth_type', 'signing_secret'])
    .where('org_id', '=', s.ws.orgId)
    .orderBy('created_at')
    .execute();
const verifyWith = (key: string, r: { body: string; headers: Record<string, string> }) =>
  new Webhook(key).verify(r.body, r.headers);
const delivered = (eventId: string) => inboxRequestFor(s, eventId);
/** The Inbox page's signature badge on the row of one delivery (the row shows its webhook-id). */
const inboxBadge = (webhookId: string, text: string | RegExp) =>
  page.getByRole('row').filter({ hasText: webhookId }).getByText(text, { exact: true });
const startTarget = (kind: RegExp, name: string, fill?: () => Promise<void>) =>
  createTargetThroughForm(page, kind, name, fill);

describe('the dashboard journey', () => {
  it('signs in through the form', async () => {
    await page.goto(`${s.url}/login`);
    await page.getByLabel('Email').fill(s.ws.email);
    await page.getByLabel('Password').fill(s.ws.password);
    await screenshot(page, '01-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await h1('Overview').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('creates a webhook on the local inbox, a mailbox and an A2A agent', async () => {
    await nav('Targets');
    await startTarget(/Webhook/, 'Orders webhook', async () => {
      await page.getByRole('button', { name: 'Use the local inbox URL' }).click();
      expect(await page.getByLabel('URL', { exact: true }).inputValue()).toBe(s.inbox.hookUrl);
    });
    const shown = page.getByRole('region', { name: 'Signing secret' });
    secret = (await shown.getByTestId('secret').textContent()) ?? '';
    expect(secret).toMatch(WHSEC);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByText('Copied', { exact: true }).waitFor();
    expect(await readClipboard(page)).toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();

    await startTarget(/Mailbox/, 'Support mailbox');
    await page.getByRole('heading', { name: 'Target “Support mailbox” created' }).waitFor();
    expect(await page.getByTestId('secret').count()).toBe(0);
    await page.getByRole('button', { name: 'Done' }).click();

    await startTarget(/A2A agent/, 'Triage agent', async () => {
      await page.getByLabel('Agent Card URL').fill(s.agentCardUrl);
      await page.getByRole('radio', { name: 'None' }).check();
    });
    await page.getByRole('heading', { name: 'Target “Triage agent” created' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();

    const rows = await targetRows();
    expect(rows.map((r) => [r.kind, r.name])).toEqual([
      ['webhook', 'Orders webhook'],
      ['mailbox', 'Support mailbox'],
      ['a2a', 'Triage agent'],
    ]);
    const [webhook, mailbox, a2a] = rows;
    expect(webhook).toMatchObject({ url: s.inbox.hookUrl, signing_secret: expect.any(String) });
    // Stored sealed: the secret the page showed is not in the row as such.
    expect(webhook!.signing_secret).not.toContain(secret.slice('whsec_'.length));
    expect(mailbox).toMatchObject({ url: null, signing_secret: null });
    expect(a2a).toMatchObject({ agent_card_url: s.agentCardUrl, a2a_auth_type: 'none' });
    ids.webhook = webhook!.id;
    ids.mailbox = mailbox!.id;

    const table = page.getByRole('table', { name: 'Targets' });
    for (const name of ['Orders webhook', 'Support mailbox', 'Triage agent'])
      await table.getByRole('link', { name, exact: true }).waitFor();
    await screenshot(page, '03-targets');
  });

  it('shows why a refused URL is refused, and creates nothing', async () => {
    await startTarget(/Webhook/, 'Internal', () =>
      page.getByLabel('URL', { exact: true }).fill('https://10.0.0.1/hook'),
    );
    const alert = page.getByRole('alert');
    await alert.getByText(/url_refused/).waitFor();
    expect(await alert.textContent()).toBe(
      '422 url_refused: url: refused by the network policy: address 10.0.0.1 is not public (private)',
    );
    await page.getByLabel('URL', { exact: true }).fill('http://example.com');
    await page.getByRole('button', { name: 'Create target' }).click();
    await alert.getByText(/validation_failed/).waitFor();
    expect(await alert.textContent()).toBe('400 validation_failed: url: must be an https URL');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await targetRows()).map((r) => r.name)).not.toContain('Internal');
    expect(await targetRows()).toHaveLength(3);
  });

  it('follows a test event to DELIVERED, and it writes no usage', async () => {
    await openTarget(page, 'Orders webhook');
    firstEvent = await sendTestEvent(page);
    await screenshot(page, '04-target-test-event');
    await page.getByRole('link', { name: 'View the event' }).click();
    await h1('Event').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/events/${firstEvent}`);
    // The page polls until the event settles.
    await page.getByText('DELIVERED', { exact: true }).first().waitFor({ timeout: 30_000 });
    // The header carries the environment's own badge ("test"): the event's is in the page's main part.
    await page.getByRole('main').getByText('test', { exact: true }).waitFor();
    const attempt = page.getByRole('listitem').filter({ hasText: 'Attempt 1' });
    const [row] = await s.stack.db
      .selectFrom('delivery_attempts')
      .select(['status_code', 'duration_ms'])
      .where('event_id', '=', firstEvent)
      .execute();
    expect(row?.status_code).toBe(200);
    const text = await attempt.innerText();
    expect(text).toMatch(/Status code\s+200/);
    expect(text).toMatch(new RegExp(`Duration\\s+${row!.duration_ms} ms`));
    await screenshot(page, '05-event-delivered');

    const event = await s.stack.db
      .selectFrom('events')
      .select(['status', 'test'])
      .where('id', '=', firstEvent)
      .executeTakeFirst();
    expect(event).toEqual({ status: 'DELIVERED', test: true });
    const ledger = await s.stack.db
      .selectFrom('usage_records')
      .select('item_id')
      .where('org_id', '=', s.ws.orgId)
      .execute();
    expect(ledger).toEqual([]);
    const usage = await s.stack.api<Usage>('/api/v1/usage', { key: s.ws.apiKey });
    expect(usage.status).toBe(200);
    expect(usage.body.usage.accepted_events).toBe(0);
  });

  it('shows the delivery verified on the Inbox page, and standardwebhooks agrees', async () => {
    const got = await delivered(firstEvent);
    expect(got?.path).toBe(new URL(s.inbox.hookUrl).pathname);
    expect(verifyWith(secret, got!)).toMatchObject({ event_type: 'evds.test', test: true });
    expect(() => verifyWith(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, got!)).toThrow();

    await nav('Inbox');
    await inboxBadge(firstEvent, 'Signature verified · 1 signature').waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: firstEvent })
      .getByRole('button', { name: `Show request ${got!.id}` })
      .click();
    await page.getByText(`verified with the signing secret of target ${ids.webhook}`).waitFor();
    await screenshot(page, '06-inbox-verified');
  });

  it('replays the event: the replay is DELIVERED and verified again', async () => {
    await page.goto(`${s.url}/events/${firstEvent}`);
    await h1('Event').waitFor();
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/events/') && u.pathname !== `/events/${firstEvent}`);
    const replay = new URL(page.url()).pathname.slice('/events/'.length);
    await page.getByRole('note').getByText(`This event is a replay of event ${firstEvent}`).waitFor();
    await page.getByText('DELIVERED', { exact: true }).first().waitFor({ timeout: 30_000 });

    const got = await delivered(replay);
    expect(verifyWith(secret, got!)).toMatchObject({ event_type: 'evds.test' });
    const all = await inboxRequests(s);
    expect(all.filter((r) => r.signature.verified)).toHaveLength(2);
    await nav('Inbox');
    await inboxBadge(replay, 'Signature verified · 1 signature').waitFor();
  });

  it('rotates the secret: the next delivery carries two signatures, each verifying', async () => {
    await openTarget(page, 'Orders webhook');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = page.getByRole('region', { name: 'New signing secret' });
    const rotated = (await shown.getByTestId('secret').textContent()) ?? '';
    expect(rotated).toMatch(WHSEC);
    expect(rotated).not.toBe(secret);
    await shown.getByRole('button', { name: 'Copy' }).waitFor();

    const next = await sendTestEvent(page);
    const got = await delivered(next);
    expect(got?.signature).toMatchObject({ verified: true, signatures: 2 });
    expect(verifyWith(secret, got!)).toMatchObject({ test: true });
    expect(verifyWith(rotated, got!)).toMatchObject({ test: true });

    await nav('Inbox');
    await inboxBadge(next, 'Signature verified · 2 signatures').waitFor();
  });

  it('shows an item ingested with the API key on the Mailboxes page, byte for byte', async () => {
    const body = '{"order":42,  "items":["tea","cups"],"note":"spacing kept"}';
    const r = await s.stack.ingest<{ id: string }>(`/t/${ids.mailbox}`, {
      key: s.ws.apiKey,
      body,
      headers: { 'x-event-type': 'order.created' },
    });
    expect(r.status).toBe(202);

    await nav('Mailboxes');
    await page
      .getByRole('navigation', { name: 'Mailbox targets' })
      .getByRole('link', { name: 'Support mailbox' })
      .click();
    await page.getByRole('button', { name: /^Message / }).click();
    await page.getByRole('heading', { name: `Message ${r.body.id}` }).waitFor();
    const exact = page.getByLabel('Payload, exact bytes');
    await exact.getByText(body, { exact: true }).waitFor();
    expect(await page.getByLabel('Payload, pretty-printed').textContent()).toBe(
      JSON.stringify(JSON.parse(body), null, 2),
    );
    await screenshot(page, '07-mailbox');
  });

  it('creates an API key that works, deletes it, and shows the last-key guard', async () => {
    await nav('API keys');
    await page.getByLabel('Key name').fill('CI deploy');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: 'New API key “CI deploy”' });
    const key = (await shown.getByTestId('secret').textContent()) ?? '';
    expect(key).toMatch(/^evds_sk_[0-9a-f]{64}$/);
    await shown.getByRole('button', { name: 'Copy' }).waitFor();
    expect((await s.stack.api('/api/v1/keys', { key })).status).toBe(200);
    await screenshot(page, '08-keys');
    await shown.getByRole('button', { name: 'Done, I have copied it' }).click();

    const dialog = page.getByRole('dialog', { name: 'Delete API key?' });
    await page.getByRole('button', { name: 'Delete key CI deploy' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete key CI deploy' }).waitFor({ state: 'detached' });
    expect((await s.stack.api('/api/v1/keys', { key })).status).toBe(401);

    await page.getByRole('button', { name: 'Delete key default' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe("409 last_key: cannot delete the workspace's last API key");
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await s.stack.api('/api/v1/keys', { key: s.ws.apiKey })).status).toBe(200);
  });

  it('sums the journey up on the Overview', async () => {
    await nav('Overview');
    await page.getByRole('heading', { name: 'Deliveries over time' }).waitFor();
    await page.getByText('Billing is disabled during the beta.').first().waitFor();
    await screenshot(page, '02-overview');
  });
});
