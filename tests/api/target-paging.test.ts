// Proves the optional paging of GET /api/v1/targets and GET /api/v1/endpoints over real HTTP: without
// a paging parameter the answer is the contract's, every target and no `next_cursor`; with `limit`
// (1-100) the pages follow the same order (oldest first, then id), each target exactly once, with
// `next_cursor` set until the last page (null there); `after` alone pages too; the endpoint list pages
// through webhooks only; targets created at the very same instant are neither skipped nor repeated; a
// cursor whose target was deleted since still continues; and bad parameters (limit out of range or not
// a number, a cursor of the wrong shape, of another organization, unknown parameters) answer 400.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';
import { sql } from 'kysely';

let api: TestApi;
let ws: TestWorkspace;
/** Every target of `ws`, as the unpaged list orders them. */
let all: string[];
let webhooks: string[];

type TargetPage = { targets: { id: string }[]; next_cursor?: string | null; code?: string };
type EndpointPage = { endpoints: { id: string }[]; next_cursor?: string | null };

beforeAll(async () => {
  api = await startTestApi();
  ws = await seedWorkspace(api.database.db);
  for (let i = 0; i < 7; i++) {
    const body =
      i % 3 === 2
        ? { kind: 'mailbox', name: `m${i}` }
        : { kind: 'webhook', name: `w${i}`, url: `https://127.0.0.1:9/hook/${i}` };
    const r = await api.request('/api/v1/targets', { key: ws.apiKey, body });
    expect(r.status).toBe(201);
  }
  const list = await api.request<TargetPage>('/api/v1/targets', { key: ws.apiKey });
  all = list.body.targets.map((t) => t.id);
  const endpoints = await api.request<EndpointPage>('/api/v1/endpoints', { key: ws.apiKey });
  webhooks = endpoints.body.endpoints.map((t) => t.id);
});
afterAll(() => api.stop());

/** Follows `next_cursor` from the first page to the last; returns the pages' ids in order. */
async function walk(path: string, field: 'targets' | 'endpoints', limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let after: string | null | undefined;
  do {
    const query = `limit=${limit}${after ? `&after=${after}` : ''}`;
    const r = await api.request<Record<string, { id: string }[]> & { next_cursor: string | null }>(
      `${path}?${query}`,
      { key: ws.apiKey },
    );
    expect(r.status).toBe(200);
    const ids = (r.body[field] ?? []).map((t) => t.id);
    pages.push(ids);
    expect(r.body.next_cursor === null || r.body.next_cursor === ids.at(-1)).toBe(true);
    after = r.body.next_cursor;
    expect(pages.length).toBeLessThan(50);
  } while (after);
  return pages;
}

describe('target list paging', () => {
  it('without paging parameters answers every target as before; pages of 3 give each once, in that order', async () => {
    const r = await api.request<TargetPage>('/api/v1/targets', { key: ws.apiKey });
    expect(Object.keys(r.body)).toEqual(['targets']);
    expect(all).toHaveLength(7);
    const e = await api.request<EndpointPage>('/api/v1/endpoints', { key: ws.apiKey });
    expect(Object.keys(e.body)).toEqual(['endpoints']);
    expect(webhooks).toHaveLength(5);

    const pages = await walk('/api/v1/targets', 'targets', 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(all);
  });

  it('a page holding exactly the rest answers next_cursor null', async () => {
    const pages = await walk('/api/v1/targets', 'targets', 7);
    expect(pages).toEqual([all]);
  });

  it('the endpoint list pages through webhooks only', async () => {
    const pages = await walk('/api/v1/endpoints', 'endpoints', 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(webhooks);
  });

  it('after alone answers the rest as a page with next_cursor', async () => {
    const r = await api.request<TargetPage>(`/api/v1/targets?after=${all[1]}`, { key: ws.apiKey });
    expect(r.body.targets.map((t) => t.id)).toEqual(all.slice(2));
    expect(r.body.next_cursor).toBeNull();
  });

  it('targets created at the very same instant are neither skipped nor repeated', async () => {
    const same = await seedWorkspace(api.database.db);
    for (let i = 0; i < 5; i++)
      await api.request('/api/v1/targets', { key: same.apiKey, body: { kind: 'mailbox', name: `s${i}` } });
    await sql`update targets set created_at = '2026-01-01T00:00:00.123456Z' where org_id = ${same.orgId}`.execute(
      api.database.db,
    );
    const pages: string[][] = [];
    let after = '';
    do {
      const r = await api.request<TargetPage>(`/api/v1/targets?limit=2${after && `&after=${after}`}`, {
        key: same.apiKey,
      });
      pages.push(r.body.targets.map((t) => t.id));
      after = r.body.next_cursor ?? '';
    } while (after && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const ids = pages.flat();
    expect(new Set(ids).size).toBe(5);
    expect(ids).toEqual([...ids].sort());
  });

  it('a cursor whose target was deleted since still continues after it', async () => {
    const fresh = await seedWorkspace(api.database.db);
    for (const name of ['a', 'b', 'c'])
      await api.request('/api/v1/targets', { key: fresh.apiKey, body: { kind: 'mailbox', name } });
    const first = await api.request<TargetPage>('/api/v1/targets?limit=1', { key: fresh.apiKey });
    const cursor = first.body.next_cursor ?? '';
    expect(first.body.targets.map((t) => t.id)).toEqual([cursor]);
    await api.request(`/api/v1/targets/${cursor}`, { method: 'DELETE', key: fresh.apiKey });
    const next = await api.request<{ targets: { id: string; name: string }[] }>(
      `/api/v1/targets?limit=1&after=${cursor}`,
      { key: fresh.apiKey },
    );
    expect(next.status).toBe(200);
    expect(next.body.targets.map((t) => t.name)).toEqual(['b']);
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['limit=abc'],
    ['limit=-1'],
    ['after=nope'],
    [`after=${'A'.repeat(32)}`],
    ['page=2'],
  ])('answers 400 to %s', async (query) => {
    for (const path of ['/api/v1/targets', '/api/v1/endpoints']) {
      const r = await api.request(`${path}?${query}`, { key: ws.apiKey });
      expect([r.status, r.body.code]).toEqual([400, 'validation_failed']);
    }
  });

  it("answers 400 to a cursor of another organization's target, revealing nothing of it", async () => {
    const other = await seedWorkspace(api.database.db);
    const r = await api.request<TargetPage>(`/api/v1/targets?limit=2&after=${all[0]}`, { key: other.apiKey });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'after: not a target of this organization', code: 'validation_failed' });
  });
});
