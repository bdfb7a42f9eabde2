// The data and the page list of pages.test.ts: a webhook target delivering into the local inbox (its
// secret registered there, so signatures verify), a mailbox holding a few messages, test events that
// were delivered, and for each page of the dashboard the address and what shows once its data is in.
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { BrowserStack } from './stack.ts';

export interface PageCase {
  name: string;
  path: string;
  /** Visited without a session (sign-in). */
  signedOut?: boolean;
  /** Does what the page needs (a click) and resolves once the page shows its data. */
  ready(page: Page): Promise<void>;
  /** The README's picture of this page, taken on the first visit. */
  screenshot?: string;
}

const HOOK = 'Inbox hook';
const MAILBOX = 'Orders box';

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Seeds the workspace through the API with its key, then names every page and its data. */
export async function seedPages(s: BrowserStack): Promise<PageCase[]> {
  const key = s.ws.apiKey;
  const hook = await s.stack.api<{ target: { id: string; secret: string } }>('/api/v1/targets', {
    key,
    body: { kind: 'webhook', name: HOOK, url: s.inbox.hookUrl, description: 'Delivers to the local inbox' },
  });
  expect(hook.status).toBe(201);
  const hookId = hook.body.target.id;
  const registered = await fetch(`${s.inbox.controlUrl}/secrets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label: hookId, secret: hook.body.target.secret }),
  });
  expect(registered.status).toBeLessThan(300);

  const box = await s.stack.api<{ target: { id: string } }>('/api/v1/targets', {
    key,
    body: { kind: 'mailbox', name: MAILBOX },
  });
  expect(box.status).toBe(201);
  const boxId = box.body.target.id;
  for (let i = 1; i <= 3; i++) {
    const r = await s.stack.ingest(`/t/${boxId}`, {
      key,
      body: { order: i, items: [{ sku: `sku-${i}`, qty: i }] },
      headers: { 'x-event-type': 'order.created' },
    });
    expect(r.status).toBe(202);
  }

  const events: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await s.stack.api<{ id: string; test: boolean }>(`/api/v1/targets/${hookId}/test`, {
      key,
      method: 'POST',
    });
    expect(r.status).toBe(202);
    expect(r.body.test).toBe(true);
    events.push(r.body.id);
  }
  for (const id of events)
    await until(`event ${id} delivered`, async () => {
      const r = await s.stack.api<{ status: string }>(`/api/v1/events/${id}`, { key });
      return r.body.status === 'DELIVERED' ? true : undefined;
    });
  await until('the inbox to hold the deliveries', async () => {
    const r = (await (await fetch(`${s.inbox.controlUrl}/requests`)).json()) as { requests: unknown[] };
    return r.requests.length >= events.length ? true : undefined;
  });
  const messages = await s.stack.api<{ messages: { id: string }[] }>(`/api/v1/mailboxes/${boxId}/messages`, {
    key,
  });
  expect(messages.body.messages.length).toBe(3);
  return pageCases({ hookId, boxId, eventId: events[0]!, messageId: messages.body.messages[0]!.id });
}

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();

function pageCases(d: { hookId: string; boxId: string; eventId: string; messageId: string }): PageCase[] {
  const overview = async (page: Page, window: '24 hours' | '7 days') => {
    await page.getByRole('heading', { level: 2, name: `Deliveries in the last ${window}` }).waitFor();
    await page.getByRole('figure').waitFor();
    await page.getByRole('table', { name: 'Events by status' }).waitFor();
    await page.getByText('Billing is disabled during the beta.').first().waitFor();
  };
  return [
    {
      name: 'Sign-in',
      path: '/login',
      signedOut: true,
      ready: (page) => page.getByRole('button', { name: 'Sign in' }).waitFor(),
    },
    { name: 'Overview (24 h)', path: '/', ready: (page) => overview(page, '24 hours') },
    {
      name: 'Overview (7 d)',
      path: '/',
      ready: async (page) => {
        await overview(page, '24 hours');
        await page.getByRole('group', { name: 'Time window' }).getByRole('button', { name: '7 d' }).click();
        await overview(page, '7 days');
      },
    },
    { name: 'Targets', path: '/targets', ready: (page) => page.getByRole('link', { name: HOOK }).waitFor() },
    {
      name: 'New target form',
      path: '/targets',
      ready: async (page) => {
        await page.getByRole('button', { name: 'New target' }).click();
        await page
          .getByRole('group', { name: 'Kind' })
          .getByRole('radio', { name: /Webhook/ })
          .waitFor();
        await page.getByRole('button', { name: 'Use the local inbox URL' }).waitFor();
      },
    },
    {
      name: 'Webhook target',
      path: `/targets/${d.hookId}`,
      ready: async (page) => {
        await h1(page, HOOK);
        await page.getByRole('button', { name: 'Rotate secret' }).waitFor();
      },
    },
    { name: 'Mailbox target', path: `/targets/${d.boxId}`, ready: (page) => h1(page, MAILBOX) },
    {
      name: 'Events',
      path: '/events',
      screenshot: '09-events',
      ready: (page) => page.getByRole('link', { name: d.eventId, exact: true }).waitFor(),
    },
    {
      name: 'One event',
      path: `/events/${d.eventId}`,
      ready: async (page) => {
        await h1(page, 'Event');
        await page.getByText('Attempt 1', { exact: true }).waitFor();
      },
    },
    {
      name: 'Mailboxes, a message open',
      path: `/mailboxes/${d.boxId}?message=${d.messageId}`,
      ready: async (page) => {
        await page.getByRole('heading', { name: `Message ${d.messageId}` }).waitFor();
        await page.getByLabel('Payload, exact bytes').waitFor();
        await page
          .getByRole('button', { name: /^Message / })
          .nth(2)
          .waitFor();
      },
    },
    {
      name: 'API keys',
      path: '/keys',
      ready: (page) =>
        page
          .getByRole('button', { name: /^Delete key / })
          .first()
          .waitFor(),
    },
    {
      name: 'Organization & billing',
      path: '/org',
      screenshot: '10-organization-billing',
      ready: async (page) => {
        await page.getByLabel('Organization name').waitFor();
        expect(await page.getByLabel('Organization name').inputValue()).toBe('Acme');
        await page.getByRole('heading', { level: 2, name: 'Invoices' }).waitFor();
      },
    },
    {
      name: 'Inbox, a request open',
      path: '/inbox',
      ready: async (page) => {
        await page.getByText('Signature verified').first().waitFor();
        await page
          .getByRole('button', { name: /^Show request / })
          .first()
          .click();
        await page.getByLabel('Body, exact bytes').first().waitFor();
      },
    },
    { name: 'Not found', path: '/no/such/page', ready: (page) => h1(page, 'Page not found') },
  ];
}
