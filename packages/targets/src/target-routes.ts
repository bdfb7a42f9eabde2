// The unified target routes: targets of every kind are created (a2a ones from their Agent Card, see
// a2a-routes.ts), listed, read, renamed, enabled or disabled, and deleted here; a2a targets refreshed.
import { createDiscovery } from '@evds/a2a';
import { getTarget, softDeleteTarget, updateTarget } from '@evds/db';
import { newId, notFound } from '@evds/domain';
import { type RouteDef, defineRoute, idParams } from '@evds/http';
import { createGuardedAgent } from '@evds/netguard';
import { newSigningSecret } from '@evds/secrets';
import { z } from 'zod';
import { descriptionInput, nameInput, requireAllowedUrl, urlInput, type TargetRouteDeps } from './inputs.ts';
import { a2aCreateInput, a2aRefreshRoute, createA2aTargetFromCard, warningsSchema } from './a2a-routes.ts';
import { createdTargetSchema, errorSchema, targetSchema, targetView } from './views.ts';
import { NEW_TARGET_CIRCUIT, resetCircuitBeforeEnabling, withCircuits } from './health.ts';
import { createTargetUnderCap, targetLimitResponse } from './target-cap.ts';
import { listTargetsForQuery, nextCursorSchema, targetListQuery } from './target-paging.ts';

const tag = 'targets';
const notFoundResponse = { 404: { description: 'no such target in this organization', schema: errorSchema } };
const badBody = { 400: { description: 'invalid body (the message names the field)', schema: errorSchema } };

const creatableKinds = ['webhook', 'mailbox', 'a2a'] as const;

const createBody = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('webhook'),
      name: nameInput,
      url: urlInput,
      description: descriptionInput.optional(),
    }),
    z.strictObject({ kind: z.literal('mailbox'), name: nameInput, description: descriptionInput.optional() }),
    a2aCreateInput,
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `must be one of ${creatableKinds.map((k) => `"${k}"`).join(', ')}`
        : undefined,
  },
);

export function targetRoutes(deps: TargetRouteDeps): RouteDef[] {
  const { db, secrets, netPolicy } = deps;
  // Card fetches are rare: no keep-alive, so nothing lingers between them.
  const discover =
    deps.discoverCard ??
    createDiscovery({
      agent: createGuardedAgent(netPolicy, { keepAlive: false }),
      checkUrl: netPolicy.checkUrl,
    });
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/targets',
      auth: 'KS',
      tag,
      summary:
        "The organization's targets of every kind, oldest first, each with its delivery health; all of " +
        'them, or one page when limit or after is given',
      query: targetListQuery,
      responses: {
        200: {
          description: 'targets',
          schema: z.object({ targets: z.array(targetSchema), next_cursor: nextCursorSchema }),
        },
        400: { description: 'a bad query parameter (the message names it)', schema: errorSchema },
      },
      handler: async ({ auth, query }) => {
        const { targets, nextCursor } = await listTargetsForQuery(db, auth.orgId, query);
        const body = { targets: await withCircuits(deps, targets, targetView) };
        return { body: nextCursor === undefined ? body : { ...body, next_cursor: nextCursor } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/targets',
      auth: 'KS',
      tag,
      summary:
        'Create a webhook, mailbox or a2a target; a webhook answer carries its signing secret, once; an ' +
        'a2a target is created from its Agent Card (A2A v1.0, an HTTP+JSON 1.x interface with an https URL)',
      body: createBody,
      responses: {
        201: {
          description: 'created',
          schema: z.object({
            target: createdTargetSchema,
            warnings: warningsSchema.optional().describe('a2a targets only'),
          }),
        },
        ...badBody,
        422: {
          description:
            'url or agent_card_url refused by the network policy (not a public address); an Agent Card ' +
            'that cannot be fetched (unreachable, redirect, too large) or used (not JSON, pre-1.0, no ' +
            'usable A2A v1 HTTP+JSON interface)',
          schema: errorSchema,
        },
        ...targetLimitResponse,
      },
      handler: async ({ auth, body }) => {
        const base = {
          id: newId(),
          org_id: auth.orgId,
          name: body.name,
          description: body.description || null,
        };
        if (body.kind === 'mailbox') {
          const t = await createTargetUnderCap(db, deps.targetsPerOrg, { ...base, kind: 'mailbox' });
          return { status: 201, body: { target: targetView(t, NEW_TARGET_CIRCUIT) } };
        }
        if (body.kind === 'a2a') {
          const r = await createA2aTargetFromCard(
            { db, secrets, discover, targetsPerOrg: deps.targetsPerOrg },
            auth.orgId,
            body,
          );
          return {
            status: 201,
            body: { target: targetView(r.target, NEW_TARGET_CIRCUIT), warnings: r.warnings },
          };
        }
        await requireAllowedUrl(netPolicy, body.url);
        const secret = newSigningSecret();
        const t = await createTargetUnderCap(db, deps.targetsPerOrg, {
          ...base,
          kind: 'webhook',
          url: body.url,
          signing_secret: secrets.seal(secret, { id: base.id, column: 'signing_secret' }),
        });
        return { status: 201, body: { target: { ...targetView(t, NEW_TARGET_CIRCUIT), secret } } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/targets/:id',
      auth: 'KS',
      tag,
      summary: 'One target with its delivery health (never its secrets)',
      params: idParams,
      responses: {
        200: { description: 'the target', schema: z.object({ target: targetSchema }) },
        ...notFoundResponse,
      },
      handler: async ({ auth, params }) => {
        const t = await getTarget(db, auth.orgId, params.id);
        if (!t) throw notFound('target');
        const [target] = await withCircuits(deps, [t], targetView);
        return { body: { target } };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/targets/:id',
      auth: 'KS',
      tag,
      summary:
        'Change any of name, description, enabled; enabling a disabled target clears disabled_reason and ' +
        'its failing run and closes its circuit',
      params: idParams,
      body: z.strictObject({
        name: nameInput.optional(),
        description: descriptionInput.optional(),
        enabled: z.boolean().optional(),
      }),
      // Of these fields ingest reads only `enabled`.
      invalidatesIngest: (b) => b.enabled !== undefined,
      responses: {
        200: { description: 'the updated target', schema: z.object({ target: targetSchema }) },
        ...badBody,
        ...notFoundResponse,
      },
      handler: async ({ auth, params, body }) => {
        if (body.enabled === true) {
          const current = await getTarget(db, auth.orgId, params.id);
          if (!current) throw notFound('target');
          await resetCircuitBeforeEnabling(deps, current, body.enabled);
        }
        const r = await updateTarget(db, auth.orgId, params.id, {
          name: body.name,
          description: body.description === undefined ? undefined : body.description || null,
          enabled: body.enabled,
        });
        if (!r) throw notFound('target');
        const [target] = await withCircuits(deps, [r.target], targetView);
        return { body: { target } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/targets/:id',
      auth: 'KS',
      invalidatesIngest: true,
      tag,
      summary: 'Delete a target; its events and messages stay readable',
      params: idParams,
      responses: {
        200: { description: 'deleted', schema: z.object({ deleted: z.literal(true) }) },
        ...notFoundResponse,
      },
      handler: async ({ auth, params }) => {
        if (!(await softDeleteTarget(db, auth.orgId, params.id))) throw notFound('target');
        return { body: { deleted: true } };
      },
    }),
    a2aRefreshRoute({ db, discover, redis: deps.redis, prefix: deps.prefix }),
  ];
}
