// The routes the security suites cover, read from the OpenAPI document the API serves (so a route
// added later is covered, or makes the suites fail, without anyone editing them), and for each one
// a builder of well-formed requests on an organization's real resources. A documented route without
// a builder throws: the suites then fail naming it.
import type { OpenApiDocument } from '@evds/http';
import type { OrgFixtures } from './org-fixtures.ts';

export type AuthKind = 'P' | 'K' | 'S' | 'KS';

export interface DocumentedOp {
  /** `POST /api/v1/keys/{id}`, as the document names it. */
  op: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI path template, e.g. /api/v1/keys/{id}. */
  path: string;
  auth: AuthKind;
  /** Names of the path parameters, in order. */
  params: string[];
  /** /e/ and /t/ are served by ingest, everything else by the API. */
  service: 'api' | 'ingest';
}

/** A request a route would take from the organization that owns the resources it names. */
export interface RouteRequest {
  /** What the ids point at, e.g. "mailbox target". */
  label: string;
  /** The path with its parameters filled in. */
  path: string;
  params: Record<string, string>;
  body?: unknown;
}

const METHODS = ['get', 'post', 'patch', 'delete'] as const;

function authOf(op: string, security: unknown): AuthKind {
  const names = (Array.isArray(security) ? security : [])
    .flatMap((s: Record<string, unknown>) => Object.keys(s))
    .sort()
    .join(',');
  const kinds: Record<string, AuthKind> = {
    '': 'P',
    apiKey: 'K',
    sessionToken: 'S',
    'apiKey,sessionToken': 'KS',
  };
  const kind = kinds[names];
  if (!kind) throw new Error(`${op}: unexpected security requirement ${JSON.stringify(security)}`);
  return kind;
}

/** Every operation in the document, with its auth kind from its `security`. */
export function documentedOps(doc: OpenApiDocument): DocumentedOp[] {
  const ops: DocumentedOp[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const operation = (item as Record<string, { security?: unknown } | undefined>)[m];
      if (!operation) continue;
      const method = m.toUpperCase() as DocumentedOp['method'];
      const op = `${method} ${path}`;
      ops.push({
        op,
        method,
        path,
        auth: authOf(op, operation.security),
        params: [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1] ?? ''),
        service: /^\/(e|t)\//.test(path) ? 'ingest' : 'api',
      });
    }
  }
  return ops.sort((a, b) => a.op.localeCompare(b.op));
}

type Build = (o: OrgFixtures) => { label: string; params?: Record<string, string>; body?: unknown }[];

const one =
  (body?: unknown): Build =>
  () => [{ label: 'no ids', body }];
const each =
  (param: string, pick: (o: OrgFixtures) => Record<string, string>, body?: unknown): Build =>
  (o) =>
    Object.entries(pick(o)).map(([label, id]) => ({ label, params: { [param]: id }, body }));

const allTargets = (o: OrgFixtures) => ({
  'webhook target': o.targets.webhook,
  'legacy endpoint': o.targets.endpoint,
  'mailbox target': o.targets.mailbox,
  'a2a target': o.targets.a2a,
});
const webhooks = (o: OrgFixtures) => ({
  'webhook target': o.targets.webhook,
  'legacy endpoint': o.targets.endpoint,
});
const allEvents = (o: OrgFixtures) => ({
  'webhook event': o.events.webhook,
  'legacy endpoint event': o.events.endpoint,
  'a2a event': o.events.a2a,
});
const message = (o: OrgFixtures) => ({ 'mailbox message': o.message });
const keys = (o: OrgFixtures) => ({ 'first API key': o.ws.keyId, 'spare API key': o.spareKey.id });
const url = 'https://93.184.215.14/other';

/** One entry per documented operation; keep it in step with the document (the suites say when not). */
const BUILDERS: Record<string, Build> = {
  'GET /health': one(),
  'GET /api/v1/openapi.json': one(),
  'POST /api/v1/auth/signup': one({ email: 'new@example.test', password: 'pw' }),
  'POST /api/v1/auth/login': (o) => [
    { label: 'own user', body: { email: o.ws.email, password: o.ws.password } },
  ],
  'POST /api/v1/auth/logout': one(),
  'POST /api/v1/auth/logout-all': one(),
  'GET /api/v1/auth/me': one(),
  'GET /api/v1/orgs': one(),
  'PATCH /api/v1/orgs': one({ name: 'Renamed' }),
  'GET /api/v1/keys': one(),
  'POST /api/v1/keys': one({ name: 'another' }),
  'DELETE /api/v1/keys/{id}': each('id', keys),
  'GET /api/v1/endpoints': one(),
  'POST /api/v1/endpoints': one({ name: 'new', url }),
  'GET /api/v1/endpoints/{id}': each('id', allTargets),
  'PATCH /api/v1/endpoints/{id}': each('id', allTargets, {
    name: 'changed',
    url,
    enabled: false,
    verify_inbound_signatures: true,
  }),
  'DELETE /api/v1/endpoints/{id}': each('id', allTargets),
  'GET /api/v1/targets': one(),
  'POST /api/v1/targets': one({ kind: 'mailbox', name: 'new box' }),
  'GET /api/v1/targets/{id}': each('id', allTargets),
  'PATCH /api/v1/targets/{id}': each('id', allTargets, { name: 'changed', enabled: false }),
  'DELETE /api/v1/targets/{id}': each('id', allTargets),
  'POST /api/v1/targets/{id}/refresh': each('id', allTargets),
  'POST /api/v1/targets/{id}/signing-secret/rotate': each('id', webhooks),
  'DELETE /api/v1/targets/{id}/signing-secret/previous': each('id', webhooks),
  'GET /api/v1/events': one(),
  'GET /api/v1/events/{id}': each('id', allEvents),
  'POST /api/v1/events/{id}/replay': each('id', allEvents),
  'POST /api/v1/targets/{id}/recover': each('id', allTargets, { since: 0 }),
  'POST /api/v1/targets/{id}/test': each('id', allTargets, {
    event_type: 'order.created',
    payload: { n: 1 },
  }),
  'GET /api/v1/recoveries/{id}': each('id', (o) => ({ recovery: o.recovery })),
  'GET /api/v1/stats': one(),
  'GET /api/v1/stats/timeseries': one(),
  'GET /api/v1/usage': one(),
  'GET /api/v1/billing': one(),
  'POST /api/v1/billing/checkout': one({}),
  'GET /api/v1/billing/portal': one(),
  'GET /api/v1/billing/invoices': one(),
  'GET /api/v1/billing/reconciliation': one(),
  'POST /api/v1/billing/webhook': one({ type: 'invoice.paid', customer_id: 'cus_1' }),
  'GET /api/v1/mailboxes/{mailbox_id}/messages': each('mailbox_id', (o) => ({
    'mailbox target': o.targets.mailbox,
  })),
  'GET /api/v1/mailbox-messages/{message_id}': each('message_id', message),
  'POST /api/v1/mailbox-messages/{message_id}/claim': each('message_id', message),
  'POST /api/v1/mailbox-messages/{message_id}/ack': each('message_id', message),
  'POST /e/{endpoint_id}': each('endpoint_id', webhooks, { event_type: 'order.created', n: 1 }),
  'POST /t/{target_id}': each('target_id', allTargets, { event_type: 'order.created', n: 1 }),
};

/** Well-formed requests of `op` on `org`'s resources; throws when the route has no entry. */
export function routeRequests(op: DocumentedOp, org: OrgFixtures): RouteRequest[] {
  const build = BUILDERS[op.op];
  if (!build)
    throw new Error(`${op.op} has no entry in the security route table (tests/security/route-table.ts)`);
  return build(org).map(({ label, params = {}, body }) => {
    const missing = op.params.filter((p) => !(p in params));
    if (missing.length > 0) throw new Error(`${op.op}: the route table fills no ${missing.join(', ')}`);
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    return { label, path, params, body };
  });
}

/** Operations in the route table that the document no longer lists (a stale entry hides nothing, but says so). */
export const unknownEntries = (ops: DocumentedOp[]): string[] =>
  Object.keys(BUILDERS).filter((op) => !ops.some((o) => o.op === op));
