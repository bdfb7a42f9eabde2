// What session.test.ts reads and does around a session: the cookie of a browser context, a signed-in
// context of its own, the session's row in Postgres (found by the token's sha256, as the API stores
// it), API logins and checks, and the dashboard's own log of what it answered.
import { expect } from '@jest/globals';
import { sha256 } from '@evds/domain';
import type { TestWorkspace } from '@evds/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually, signIn, type BrowserStack } from './stack.ts';

export async function tokenOf(s: BrowserStack, ctx: BrowserContext): Promise<string | undefined> {
  return (await ctx.cookies(s.url)).find((c) => c.name === 'evds_session')?.value;
}

/**
 * A signed-in browser context of its own (cookies are per context). `idle()` resolves once the page
 * shows no loading status and none of its requests is under way, so what the test does next is the
 * first thing to meet a changed session. (Playwright's `networkidle` cannot tell: it fires once per
 * document, and sign-in is an in-app navigation, so waiting for it afterwards returns at once.)
 */
export async function signedIn(
  s: BrowserStack,
  ws: TestWorkspace = s.ws,
): Promise<{ ctx: BrowserContext; page: Page; token: string; idle: () => Promise<void> }> {
  const ctx = await s.browser.newContext();
  const page = await ctx.newPage();
  let underWay = 0;
  page.on('request', () => underWay++);
  page.on('requestfinished', () => underWay--);
  page.on('requestfailed', () => underWay--);
  const idle = async () => {
    await page.locator('.status.loading').first().waitFor({ state: 'detached' });
    const left = await eventually(
      () => Promise.resolve(underWay),
      (n) => n === 0,
    );
    if (left > 0) throw new Error(`${left} requests still under way after 20 s`);
  };
  await signIn(page, s, ws);
  const token = await tokenOf(s, ctx);
  expect(token).toBeDefined();
  return { ctx, page, token: token!, idle };
}

export const sessionRow = (s: BrowserStack, token: string) =>
  s.stack.db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();

export const sessionCount = async (s: BrowserStack, ws: TestWorkspace) =>
  (await s.stack.db.selectFrom('sessions').select('id').where('user_id', '=', ws.userId).execute()).length;

export const keyCount = async (s: BrowserStack, ws: TestWorkspace) =>
  (await s.stack.db.selectFrom('api_keys').select('id').where('org_id', '=', ws.orgId).execute()).length;

export const apiMe = (s: BrowserStack, token: string) => s.stack.api('/api/v1/auth/me', { session: token });

export async function apiLogin(s: BrowserStack, ws: TestWorkspace): Promise<string> {
  const r = await s.stack.api<{ session_token: string }>('/api/v1/auth/login', {
    body: { email: ws.email, password: ws.password },
  });
  expect(r.status).toBe(200);
  return r.body.session_token;
}

/** The sign-in page after a session ended under the user's feet. */
export async function expectEndedSignIn(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
  expect(new URL(page.url()).pathname).toBe('/login');
}

/** The POSTs the dashboard logged answering since log line `from`, once `count` are in (it logs async). */
export async function answeredPosts(s: BrowserStack, from: number, count: number): Promise<string[]> {
  const read = () =>
    s.dashboard.logs.slice(from).flatMap((line) => {
      const l = line as { req?: { method?: string; url?: string }; res?: { statusCode?: number } };
      return l.req?.method === 'POST' ? [`POST ${l.req.url} ${l.res?.statusCode}`] : [];
    });
  for (let i = 0; i < 50 && read().length < count; i++) await new Promise((r) => setTimeout(r, 100));
  return read().sort();
}
