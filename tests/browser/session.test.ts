// Proves, in a real Chromium against the whole product, that the dashboard's session lives only in its
// HttpOnly cookie: the cookie has the contract's attributes (no Secure here: NODE_ENV=test serves plain
// http), and the token never reaches the page's script, its storage, its HTML or any answer it received.
// Cross-site forms and no-cors fetches from another origin are refused with 403 and change nothing in
// Postgres; "Sign out" ends one session, "Sign out everywhere" ends every session of the user (other
// browsers and API logins included), and a session expired in Postgres sends the page back to sign-in.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sha256 } from '@evds/domain';
import { seedWorkspace } from '@evds/testkit';
import { startAttacker } from './attacker.ts';
import {
  answeredPosts,
  apiLogin,
  apiMe,
  expectEndedSignIn,
  keyCount,
  sessionCount,
  sessionRow,
  signedIn,
  tokenOf,
} from './session-kit.ts';
import { signIn, startBrowserStack, type BrowserStack } from './stack.ts';

const T = 60_000;
let s: BrowserStack;

beforeAll(async () => {
  s = await startBrowserStack();
}, 120_000);
afterAll(() => s?.stop());

describe('the session cookie', () => {
  it(
    'is evds_session, HttpOnly, SameSite=Strict, Path=/, not Secure under NODE_ENV=test, expiring with the session',
    async () => {
      const { ctx, token } = await signedIn(s);
      const cookies = (await ctx.cookies()).filter((c) => c.name === 'evds_session');
      expect(cookies).toHaveLength(1);
      const c = cookies[0]!;
      expect({ httpOnly: c.httpOnly, sameSite: c.sameSite, path: c.path, secure: c.secure }).toEqual({
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        // Plain http in tests; production adds Secure (packages/dashboard/src/cookie.ts).
        secure: false,
      });
      const row = await sessionRow(s, token);
      expect(row?.user_id).toBe(s.ws.userId);
      expect(Math.abs(c.expires - row!.expires_at.getTime() / 1000)).toBeLessThan(5);
      await ctx.close();
    },
    T,
  );

  it(
    "never shows the token to the page's script, its storage, its HTML or any answer it received",
    async () => {
      const ctx = await s.browser.newContext();
      const page = await ctx.newPage();
      const bodies: Promise<{ url: string; text: string }>[] = [];
      page.on('response', (r) => {
        bodies.push(
          r.body().then(
            (b) => ({ url: r.url(), text: b.toString('latin1') }),
            () => ({ url: r.url(), text: '' }),
          ),
        );
      });
      await signIn(page, s);
      const token = (await tokenOf(s, ctx))!;
      expect(token).toMatch(/^\S{20,}$/);
      // A few pages, so the answers of the forwarder and of /app are all in the record.
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const [link, heading] of [
        ['Targets', 'Targets'],
        ['Events', 'Events'],
        ['API keys', 'API keys'],
        ['Organization & billing', 'Organization & billing'],
        ['Inbox', 'Inbox'],
      ] as const) {
        await nav.getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      }
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();

      const seen = await page.evaluate(() => {
        const w = globalThis as unknown as {
          document: { cookie: string };
          localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
          sessionStorage: {
            length: number;
            key(i: number): string | null;
            getItem(k: string): string | null;
          };
        };
        const dump = (st: typeof w.localStorage) =>
          Array.from({ length: st.length }, (_, i) => `${st.key(i)}=${st.getItem(st.key(i) ?? '')}`).join(
            '\n',
          );
        return { cookie: w.document.cookie, local: dump(w.localStorage), session: dump(w.sessionStorage) };
      });
      expect(seen.cookie).not.toContain('evds_session');
      expect(seen.cookie).not.toContain(token);
      expect(seen.local).not.toContain(token);
      expect(seen.session).not.toContain(token);
      expect(await page.content()).not.toContain(token);

      const received = await Promise.all(bodies);
      expect(received.length).toBeGreaterThan(10);
      expect(received.some((r) => r.url.endsWith('/app/login'))).toBe(true);
      // The record holds what the page was sent: the user's own email is in it (from /app/me).
      expect(received.some((r) => r.text.includes(s.ws.email))).toBe(true);
      expect(received.filter((r) => r.text.includes(token)).map((r) => r.url)).toEqual([]);
      await ctx.close();
    },
    T,
  );
});

describe('cross-site requests', () => {
  // localhost is another site than 127.0.0.1 (the cookie stays home); 127.0.0.1 on another port is the
  // same site but another origin (the cookie goes along, and only the CSRF guard stands in the way).
  for (const [label, host, cookieSent] of [
    ['another site', 'localhost', false],
    ['the same site on another origin', '127.0.0.1', true],
  ] as const)
    it(
      `from ${label}: forms get 403 csrf_refused and fetches change nothing`,
      async () => {
        const attacker = await startAttacker(s.url);
        const { ctx, page, token } = await signedIn(s);
        const evil = await ctx.newPage();
        const before = { keys: await keyCount(s, s.ws), sessions: await sessionCount(s, s.ws) };
        try {
          const formsFrom = s.dashboard.logs.length;
          for (const [path, target] of [
            ['/keys', '/api/v1/keys'],
            ['/logout', '/app/logout'],
          ]) {
            const answer = evil.waitForResponse(
              (r) => r.url() === s.url + target && r.request().method() === 'POST',
            );
            await evil.goto(`http://${host}:${attacker.port}${path}`);
            const r = await answer;
            expect({ path, status: r.status(), code: ((await r.json()) as { code?: string }).code }).toEqual({
              path,
              status: 403,
              code: 'csrf_refused',
            });
            const cookie = (await r.request().allHeaders()).cookie ?? '';
            expect(cookie.includes(token)).toBe(cookieSent);
          }
          // The forms' lines reach the dashboard's log (its stdout) after their answers reach the
          // browser: waited for here, so they are not counted among the fetches' below.
          expect(await answeredPosts(s, formsFrom, 2)).toEqual([
            'POST /api/v1/keys 403',
            'POST /app/logout 403',
          ]);
          // The fetches: the page sees no answer (no-cors answers are opaque, and CORP forbids even
          // that), so the dashboard's own request log says what it answered. The CORS one never gets
          // past its preflight, which grants nothing: its POST is never sent.
          const failed: string[] = [];
          evil.on('requestfailed', (r) =>
            failed.push(`${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`),
          );
          const from = s.dashboard.logs.length;
          await evil.goto(`http://${host}:${attacker.port}/fetch`);
          await evil.waitForFunction('window.done === true');
          expect(failed.sort()).toEqual([
            'POST /api/v1/keys net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin',
            'POST /api/v1/keys net::ERR_FAILED',
            'POST /app/logout net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin',
            'POST /app/logout-all net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin',
          ]);
          expect(await answeredPosts(s, from, 3)).toEqual([
            'POST /api/v1/keys 403',
            'POST /app/logout 403',
            'POST /app/logout-all 403',
          ]);
          expect({ keys: await keyCount(s, s.ws), sessions: await sessionCount(s, s.ws) }).toEqual(before);
          expect(await sessionRow(s, token)).toBeDefined();
          expect((await ctx.request.get(`${s.url}/app/me`)).status()).toBe(200);
          await page
            .getByRole('navigation', { name: 'Main' })
            .getByRole('link', { name: 'API keys' })
            .click();
          await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
          expect(await page.getByRole('button', { name: /^Delete key csrf-/ }).count()).toBe(0);
        } finally {
          await ctx.close();
          await attacker.close();
        }
      },
      T,
    );
});

describe('signing out', () => {
  it(
    '"Sign out" ends only the current session',
    async () => {
      const ws = await seedWorkspace(s.stack.db, { name: 'Solo' });
      const a = await signedIn(s, ws);
      const b = await signedIn(s, ws);
      const viaApi = await apiLogin(s, ws);
      expect(await sessionCount(s, ws)).toBe(3);

      await a.page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await a.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(await tokenOf(s, a.ctx)).toBeUndefined();
      expect(await sessionRow(s, a.token)).toBeUndefined();
      expect((await apiMe(s, a.token)).status).toBe(401);

      expect(await sessionCount(s, ws)).toBe(2);
      expect((await apiMe(s, viaApi)).status).toBe(200);
      await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
      await b.page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
      await b.page.goto(`${s.url}/targets`);
      await b.page.getByRole('heading', { level: 1, name: 'Targets' }).waitFor();
      expect(await tokenOf(s, b.ctx)).toBe(b.token);
      await a.ctx.close();
      await b.ctx.close();
    },
    T,
  );

  it(
    '"Sign out everywhere" ends every session of the user: other browsers and API logins too',
    async () => {
      const ws = await seedWorkspace(s.stack.db, { name: 'Everywhere' });
      const other = await seedWorkspace(s.stack.db, { name: 'Bystander' });
      const a = await signedIn(s, ws);
      const b = await signedIn(s, ws);
      const viaApi = await apiLogin(s, ws);
      const bystander = await apiLogin(s, other);
      expect(await sessionCount(s, ws)).toBe(3);

      await b.idle();
      await a.page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await a.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(await tokenOf(s, a.ctx)).toBeUndefined();

      expect(await sessionCount(s, ws)).toBe(0);
      expect((await apiMe(s, viaApi)).status).toBe(401);
      // Another user's session is not touched.
      expect((await apiMe(s, bystander)).status).toBe(200);
      // The other browser's next action returns it to sign-in, and its dead cookie is cleared.
      await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Targets' }).click();
      await expectEndedSignIn(b.page);
      expect(await tokenOf(s, b.ctx)).toBeUndefined();
      await a.ctx.close();
      await b.ctx.close();
    },
    T,
  );
});

describe('an expired session', () => {
  it(
    'sends the page back to sign-in with "Your session has ended" and clears the cookie',
    async () => {
      const { ctx, page, token, idle } = await signedIn(s);
      // The Overview's own loads finish first, so the click below is what meets the ended session.
      await idle();
      const r = await s.stack.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 60_000) })
        .where('token_hash', '=', sha256(token))
        .executeTakeFirst();
      expect(Number(r.numUpdatedRows)).toBe(1);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
      await expectEndedSignIn(page);
      expect(await tokenOf(s, ctx)).toBeUndefined();
      // Signing in again works and lands where the user was headed.
      await page.getByLabel('Email').fill(s.ws.email);
      await page.getByLabel('Password').fill(s.ws.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
      await ctx.close();
    },
    T,
  );
});
