// Proves the organization routes: each caller sees and renames only its own organization, with an
// API key or a session, and bad bodies get a 400 that names the field.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { seedWorkspace, startTestApi, type TestApi, type TestWorkspace } from '@evds/testkit';

let api: TestApi;
let a: TestWorkspace;
let b: TestWorkspace;

beforeAll(async () => {
  api = await startTestApi();
  a = await seedWorkspace(api.database.db, { name: 'Alpha' });
  b = await seedWorkspace(api.database.db, { name: 'Beta' });
});
afterAll(() => api.stop());

type OrgBody = {
  org: {
    id: string;
    name: string;
    slug: string;
    billing_status: string;
    billing_grace_ends_at: number | null;
    created_at: number;
  };
};

it('shows the caller’s organization with Unix-second timestamps', async () => {
  const r = await api.request<OrgBody>('/api/v1/orgs', { key: a.apiKey });
  expect(r.status).toBe(200);
  expect(r.body.org).toEqual({
    id: a.orgId,
    name: 'Alpha',
    slug: a.slug,
    billing_status: 'exempt',
    billing_grace_ends_at: null,
    created_at: expect.any(Number),
  });
  expect(Math.abs(r.body.org.created_at - Date.now() / 1000)).toBeLessThan(600);
});

it('renames with a session and the change is visible with a key', async () => {
  const session = (
    await api.request<{ session_token: string }>('/api/v1/auth/login', {
      body: { email: a.email, password: a.password },
    })
  ).body.session_token;
  const r = await api.request('/api/v1/orgs', { method: 'PATCH', session, body: { name: 'Alpha Two' } });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ updated: true });
  expect((await api.request<OrgBody>('/api/v1/orgs', { key: a.apiKey })).body.org.name).toBe('Alpha Two');
  expect((await api.request<OrgBody>('/api/v1/orgs', { key: b.apiKey })).body.org.name).toBe('Beta');
});

it.each([
  ['an empty name', { name: '' }, /^name: /],
  ['a numeric name', { name: 12 }, /^name: /],
  ['no name', {}, /^name: /],
  ['an unknown field', { name: 'x', slug: 'y' }, /slug/],
])('refuses %s with 400 naming the field', async (_n, body, message) => {
  const r = await api.request('/api/v1/orgs', { method: 'PATCH', key: a.apiKey, body });
  expect(r.status).toBe(400);
  expect(r.body.error).toMatch(message);
});

it('refuses malformed JSON with 400 and changes nothing', async () => {
  const r = await api.request('/api/v1/orgs', { method: 'PATCH', key: b.apiKey, body: '{"name": "x"' });
  expect(r.status).toBe(400);
  expect((await api.request<OrgBody>('/api/v1/orgs', { key: b.apiKey })).body.org.name).toBe('Beta');
});

it('requires a credential', async () => {
  expect((await api.request('/api/v1/orgs')).status).toBe(401);
  expect((await api.request('/api/v1/orgs', { method: 'PATCH', body: { name: 'x' } })).status).toBe(401);
});
