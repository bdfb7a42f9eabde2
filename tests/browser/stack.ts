// The whole product as a newcomer runs it, for the browser suites: every service as its own process
// (api, ingest, both workers, the dashboard), the local inbox with its own CA (which the services
// trust), an HTTPS Agent Card for a2a targets, a seeded workspace, and a real Chromium.
import { createServer, type Server } from 'node:https';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from '@evds/localenv';
import { createLocalInbox, ensureLocalCa, type InboxRequest } from '@evds/localenv/inbox';
import {
  seedWorkspace,
  spawnService,
  startStack,
  type ServiceProcess,
  type Stack,
  type TestWorkspace,
} from '@evds/testkit';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';

export interface BrowserStack {
  stack: Stack;
  dashboard: ServiceProcess;
  /** The dashboard's origin, e.g. http://127.0.0.1:41234. */
  url: string;
  /** The local inbox: where webhook targets deliver (hookUrl) and its control API. */
  inbox: { hookUrl: string; controlUrl: string };
  /** An Agent Card (A2A v1.0) served over HTTPS with the inbox's CA. */
  agentCardUrl: string;
  ws: TestWorkspace;
  browser: Browser;
  stop(): Promise<void>;
}

function agentCard(base: string): string {
  return JSON.stringify({
    name: 'Browser test agent',
    description: 'Receives evds items',
    version: '0.0.1',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [{ id: 'intake', name: 'intake', description: 'takes items', tags: ['evds'] }],
    supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  });
}

async function startCardServer(tls: { key: string; cert: string }): Promise<Server> {
  const server = createServer(tls, (req, res) => {
    const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    res.setHeader('content-type', 'application/json');
    res.end(req.url === '/card.json' ? agentCard(base) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export async function startBrowserStack(): Promise<BrowserStack> {
  const dir = mkdtempSync(join(tmpdir(), 'evds-browser-'));
  const ca = await ensureLocalCa(join(dir, 'local-ca'));
  const inbox = createLocalInbox({ tls: ca.server });
  const inboxUrls = await inbox.start();
  const cards = await startCardServer(ca.server);
  const port = await unusedPort();
  const origin = `http://127.0.0.1:${port}`;
  const stack = await startStack({
    caFile: ca.caFile,
    services: ['api', 'ingest', 'delivery-worker', 'a2a-worker'],
    // A browser suite signs in many times from one address: the login limits are raised out of the way.
    env: {
      DASHBOARD_ORIGIN: origin,
      LOGIN_RATE_LIMIT: '1000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
      SESSIONS_PER_USER: '50',
    },
  });
  const hookUrl = `${inboxUrls.url}/hooks/browser`;
  const dashboard = await spawnService('dashboard', {
    ...stack.env,
    PORT: String(port),
    API_URL: stack.processes.get('api')?.url ?? '',
    DASHBOARD_PUBLIC_ORIGIN: origin,
    LOCAL_INBOX_CONTROL_URL: inboxUrls.controlUrl,
    LOCAL_INBOX_URL: hookUrl,
  });
  const ws = await seedWorkspace(stack.db, { name: 'Acme' });
  const browser = await launchBrowser();
  return {
    stack,
    dashboard,
    url: origin,
    inbox: { hookUrl, controlUrl: inboxUrls.controlUrl },
    agentCardUrl: `https://127.0.0.1:${(cards.address() as AddressInfo).port}/card.json`,
    ws,
    browser,
    stop: async () => {
      await browser.close();
      await dashboard.kill('SIGTERM');
      await stack.stop();
      await inbox.destroy();
      cards.closeAllConnections();
      await new Promise((resolve) => cards.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the page as a person would, and waits for the Overview. */
export async function signIn(page: Page, s: BrowserStack, ws: TestWorkspace = s.ws): Promise<void> {
  await page.goto(`${s.url}/login`);
  await page.getByLabel('Email').fill(ws.email);
  await page.getByLabel('Password').fill(ws.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/**
 * A full-page screenshot: into EVDS_SCREENSHOTS_DIR when set (the README's pictures are taken with
 * EVDS_SCREENSHOTS_DIR=docs/screenshots), else into a temporary folder the run leaves behind.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = process.env.EVDS_SCREENSHOTS_DIR ?? join(tmpdir(), 'evds-screenshots');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** What the local inbox received, newest first, read from its control API rather than from the page. */
export async function inboxRequests(s: BrowserStack): Promise<InboxRequest[]> {
  const res = await fetch(`${s.inbox.controlUrl}/requests`);
  if (!res.ok) throw new Error(`the inbox control API answered ${res.status}`);
  return ((await res.json()) as { requests: InboxRequest[] }).requests;
}

/** The request whose webhook-id is `webhookId` (an event id), waited for; undefined if it never came. */
export async function inboxRequestFor(s: BrowserStack, webhookId: string): Promise<InboxRequest | undefined> {
  const has = (list: InboxRequest[]) => list.find((r) => r.headers['webhook-id'] === webhookId);
  return has(
    await eventually(
      () => inboxRequests(s),
      (list) => has(list) !== undefined,
    ),
  );
}

/** The page's one h1, by its exact name. */
export const heading1 = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });

/** Follows a link of the "Main" navigation and waits for the page's h1 (which the links are named after). */
export async function goTo(page: Page, link: string, heading = link): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await heading1(page, heading).waitFor();
}

/** On the Targets page: opens "New target", picks the kind, names it; `fill` completes the kind's own fields. */
export async function createTargetThroughForm(
  page: Page,
  kind: RegExp,
  name: string,
  fill: () => Promise<void> = async () => {},
): Promise<void> {
  await page.getByRole('button', { name: 'New target' }).click();
  await page.getByRole('group', { name: 'Kind' }).getByRole('radio', { name: kind }).check();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await fill();
  await page.getByRole('button', { name: 'Create target' }).click();
}

/** Opens a target's own page from the Targets list. */
export async function openTarget(page: Page, name: string): Promise<void> {
  await goTo(page, 'Targets');
  await page.getByRole('link', { name, exact: true }).click();
  await heading1(page, name).waitFor();
}

/** "Send test event" on the open target's page; gives the event id its "View the event" link names. */
export async function sendTestEvent(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Send test event' }).click();
  const href = (await page.getByRole('link', { name: 'View the event' }).getAttribute('href')) ?? '';
  const id = /^\/events\/([0-9a-f]{32})$/.exec(href)?.[1];
  if (!id) throw new Error(`"View the event" links to ${href}, not to an event`);
  return id;
}

/** What the page's clipboard holds (the browser context needs the clipboard-read permission). */
export function readClipboard(page: Page): Promise<string> {
  // Runs in the page; the root project has no DOM types, so the page's global is named by hand.
  type Nav = { navigator: { clipboard: { readText(): Promise<string> } } };
  return page.evaluate(() => (globalThis as unknown as Nav).navigator.clipboard.readText());
}

/**
 * Reads again (every 200 ms) until `ok` holds, for the sources of truth a page cannot wait on (Postgres,
 * the inbox's control API); gives the last value read when time runs out, for the assertion to show.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
