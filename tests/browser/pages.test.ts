// Proves every page of the dashboard, in a real Chromium against the whole product with real data, shows
// its data with no serious or critical accessibility finding (axe-core, run under the page's own CSP)
// and without a single console error or CSP violation; prints how long each page takes to show its
// data (medians and maxima over 5 visits); holds the bundle to its budget (300 KB of gzipped
// JavaScript) with an index.html free of inline script and style; and checks the security headers of
// a page, a deep link and an asset as a browser receives them.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { seriousViolations, type AxeViolation } from './browser.ts';
import { seedPages, type PageCase } from './pages-kit.ts';
import { screenshot, signIn, startBrowserStack, type BrowserStack } from './stack.ts';

const VISITS = 5;
const DIST = new URL('../../packages/dashboard-web/dist/', import.meta.url);

let s: BrowserStack;
let cases: PageCase[];
let signedIn: BrowserContext;
let signedOut: BrowserContext;
/** Console errors, uncaught errors and CSP violations of every page visited, with where they happened. */
const problems: string[] = [];

/** Records everything that goes wrong in a page, CSP violations included (reported by the page itself). */
async function watched(ctx: BrowserContext): Promise<Page> {
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    const w = globalThis as unknown as {
      addEventListener(type: string, f: (e: { violatedDirective: string; blockedURI: string }) => void): void;
      console: { error(...a: unknown[]): void };
    };
    w.addEventListener('securitypolicyviolation', (e) =>
      w.console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${page.url()}: console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: uncaught: ${e.message}`));
  return page;
}

beforeAll(async () => {
  s = await startBrowserStack();
  cases = await seedPages(s);
  signedIn = await s.browser.newContext();
  signedOut = await s.browser.newContext();
  await signIn(await signedIn.newPage(), s);
}, 120_000);
afterAll(async () => {
  await signedIn?.close();
  await signedOut?.close();
  await s?.stop();
});

/** Navigates to the page and waits for its data; the page's own clock says how long since navigation. */
async function visit(page: Page, c: PageCase): Promise<number> {
  await page.goto(s.url + c.path);
  await c.ready(page);
  return page.evaluate(() => (globalThis as unknown as { performance: { now(): number } }).performance.now());
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe('every page', () => {
  it('shows its data, with no serious accessibility finding, and prints its times', async () => {
    const found: Record<string, AxeViolation[]> = {};
    const times: Record<string, number[]> = {};
    const pages = { in: await watched(signedIn), out: await watched(signedOut) };
    for (const c of cases) {
      const page = c.signedOut ? pages.out : pages.in;
      times[c.name] = [];
      for (let i = 0; i < VISITS; i++) {
        times[c.name]!.push(await visit(page, c));
        if (i === 0) {
          const v = await seriousViolations(page);
          if (v.length > 0) found[c.name] = v;
          if (c.screenshot) await screenshot(page, c.screenshot);
        }
      }
    }
    const rows = cases.map((c) => {
      const t = times[c.name]!;
      return `${c.name.padEnd(32)} ${median(t).toFixed(0).padStart(7)} ${Math.max(...t)
        .toFixed(0)
        .padStart(7)}`;
    });
    console.log(
      [
        `Time to data, ms (from navigation start, ${VISITS} visits each)`,
        `${'page'.padEnd(32)} ${'median'.padStart(7)} ${'max'.padStart(7)}`,
        ...rows,
      ].join('\n'),
    );
    if (Object.keys(found).length > 0)
      console.log(`axe-core serious/critical findings:\n${JSON.stringify(found, null, 2)}`);
    expect(found).toEqual({});
    for (const c of cases) expect(times[c.name]).toHaveLength(VISITS);
  }, 240_000);

  it('logged no console error, uncaught error or CSP violation on any page', () => {
    expect(problems).toEqual([]);
  });
});

describe('the bundle', () => {
  it('stays within 300 KB of gzipped JavaScript', () => {
    const assets = new URL('assets/', DIST);
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const sizes = scripts.map((f) => ({
      file: f,
      gzip: gzipSync(readFileSync(new URL(f, assets)), { level: 9 }).length,
    }));
    const total = sizes.reduce((n, x) => n + x.gzip, 0);
    console.log(
      `JavaScript, gzipped (level 9): ${(total / 1024).toFixed(1)} KB in ${scripts.length} file(s)\n` +
        sizes.map((x) => `  ${x.file}: ${x.gzip} B`).join('\n'),
    );
    expect(total).toBeLessThanOrEqual(307_200);
  });

  it('has an index.html without inline script or style, naming only assets that exist', () => {
    const html = readFileSync(new URL('index.html', DIST), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="\/[^"]+"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    const named = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThanOrEqual(2);
    for (const ref of named) {
      expect(ref).toMatch(/^\/[^/]/);
      expect(() => readFileSync(new URL(`.${ref}`, DIST))).not.toThrow();
    }
  });
});

describe('security headers', () => {
  const common = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
  const get = (path: string) => fetch(s.url + path, { headers: { accept: 'text/html,*/*' } });
  const directives = (csp: string | null) =>
    new Map(
      (csp ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name!, values]),
    );

  for (const path of ['/', '/events/evt_deep_link?status=FAILED'])
    it(`the page at ${path} runs under a strict CSP: self only, nothing inline, never framed`, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<div id="root"></div>');
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Object.fromEntries(Object.keys(common).map((h) => [h, res.headers.get(h)]))).toEqual(common);
    });

  it('an asset is cached for good and may not load anything', async () => {
    const html = await (await get('/')).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const res = await get(asset!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(directives(res.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
    expect(Object.fromEntries(Object.keys(common).map((h) => [h, res.headers.get(h)]))).toEqual(common);
  });
});
