// The legacy webhook endpoint routes. An endpoint is a webhook target seen in the older shape:
// event_types travels as a JSON-encoded string, create answers 200 {id, secret}, and a PATCH answers
// a short record. Mailbox and a2a targets do not exist on these routes (404).
import { getTarget, softDeleteTarget, updateTarget, type TargetPatch } from '@evds/db';
import { newId, notFound } from '@evds/domain';
import { type RouteDef, defineRoute, idParams } from '@evds/http';
import { newInboundSecret, newSigningSecret } from '@evds/secrets';
import { z } from 'zod';
import {
  descriptionInput,
  eventTypesInput,
  nameInput,
  requireAllowedUrl,
  uniqueTypes,
  urlInput,
  type TargetRouteDeps,
} from './inputs.ts';
import { endpointPatchSchema, endpointSchema, endpointView, errorSchema } from './views.ts';
import { resetCircuitBeforeEnabling, withCircuits } from './health.ts';
import { createTargetUnderCap, targetLimitResponse } from './target-cap.ts';
import { listTargetsForQuery, nextCursorSchema, targetListQuery } from './target-paging.ts';

const tag = 'webhook endpoints (legacy)';
const webhooksOnly = { kind: 'webhook' } as const;
const notFoundResponse = {
  404: { description: 'no such endpoint in this organization', schema: errorSchema },
};
const badBody = { 400: { description: 'invalid body (the message names the field)', schema: errorSchema } };
const refusedUrl = {
  422: { description: 'url refused by the network policy (not a public address)', schema: errorSchema },
};

export function endpointRoutes(deps: TargetRouteDeps): RouteDef[] {
  const { db, secrets, netPolicy } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/endpoints',
      auth: 'KS',
      tag,
      summary:
        "The organization's webhook endpoints, oldest first; all of them, or one page when limit or after is given",
      query: targetListQuery,
      responses: {
        200: {
          description: 'endpoints',
          schema: z.object({ endpoints: z.array(endpointSchema), next_cursor: nextCursorSchema }),
        },
        400: { description: 'a bad query parameter (the message names it)', schema: errorSchema },
      },
      handler: async ({ auth, query }) => {
        const { targets, nextCursor } = await listTargetsForQuery(db, auth.orgId, query, webhooksOnly);
        const body = { endpoints: await withCircuits(deps, targets, endpointView) };
        return { body: nextCursor === undefined ? body : { ...body, next_cursor: nextCursor } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/endpoints',
      auth: 'KS',
      tag,
      summary: 'Create a webhook endpoint; its signing secret is returned only here',
      body: z.strictObject({
        name: nameInput,
        url: urlInput,
        description: descriptionInput.optional(),
        event_types: eventTypesInput.optional(),
      }),
      responses: {
        200: {
          description: 'created',
          schema: z.object({
            id: z.string(),
            secret: z.string().describe('whsec_ + base64 of 32 random bytes; never shown again'),
          }),
        },
        ...badBody,
        ...refusedUrl,
        ...targetLimitResponse,
      },
      handler: async ({ auth, body }) => {
        await requireAllowedUrl(netPolicy, body.url);
        const secret = newSigningSecret();
        const id = newId();
        const t = await createTargetUnderCap(db, deps.targetsPerOrg, {
          id,
          org_id: auth.orgId,
          kind: 'webhook',
          name: body.name,
          url: body.url,
          description: body.description || null,
          event_types: uniqueTypes(body.event_types ?? []),
          signing_secret: secrets.seal(secret, { id, column: 'signing_secret' }),
        });
        return { body: { id: t.id, secret } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/endpoints/:id',
      auth: 'KS',
      tag,
      summary: 'One webhook endpoint (never its secret)',
      params: idParams,
      responses: {
        200: { description: 'the endpoint', schema: z.object({ endpoint: endpointSchema }) },
        ...notFoundResponse,
      },
      handler: async ({ auth, params }) => {
        const t = await getTarget(db, auth.orgId, params.id, webhooksOnly);
        if (!t) throw notFound('endpoint');
        const [endpoint] = await withCircuits(deps, [t], endpointView);
        return { body: { endpoint } };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/endpoints/:id',
      auth: 'KS',
      tag,
      summary:
        'Change any of name, url, description, event_types, enabled; verify_inbound_signatures=true ' +
        'turns producer signatures on and returns the inbound secret once, false turns them off',
      params: idParams,
      body: z.strictObject({
        name: nameInput.optional(),
        url: urlInput.optional(),
        description: descriptionInput.optional(),
        event_types: eventTypesInput.optional(),
        enabled: z.boolean().optional(),
        verify_inbound_signatures: z.boolean().optional(),
      }),
      // Ingest reads these three; a name, url or description changes nothing it caches.
      invalidatesIngest: (b) =>
        b.enabled !== undefined || b.event_types !== undefined || b.verify_inbound_signatures !== undefined,
      responses: {
        200: { description: 'the updated endpoint', schema: z.object({ endpoint: endpointPatchSchema }) },
        ...badBody,
        ...notFoundResponse,
        ...refusedUrl,
      },
      handler: async ({ auth, params, body }) => {
        const current = await getTarget(db, auth.orgId, params.id, webhooksOnly);
        if (!current) throw notFound('endpoint');
        if (body.url !== undefined) await requireAllowedUrl(netPolicy, body.url);
        await resetCircuitBeforeEnabling(deps, current, body.enabled);
        const inboundSecret = body.verify_inbound_signatures === true ? newInboundSecret() : undefined;
        const patch: TargetPatch = {
          name: body.name,
          url: body.url,
          description: body.description === undefined ? undefined : body.description || null,
          event_types: body.event_types && uniqueTypes(body.event_types),
          enabled: body.enabled,
        };
        if (inboundSecret)
          patch.inbound = {
            enabled: true,
            secretEnvelope: secrets.seal(inboundSecret, { id: params.id, column: 'inbound_secret' }),
          };
        else if (body.verify_inbound_signatures === false) patch.inbound = { enabled: false };
        const r = await updateTarget(db, auth.orgId, params.id, patch, webhooksOnly);
        if (!r) throw notFound('endpoint');
        // The short record of the contract has no health: no circuit to read.
        const v = endpointView(r.target, null);
        return {
          body: {
            endpoint: {
              id: v.id,
              name: v.name,
              url: v.url,
              description: v.description,
              event_types: v.event_types,
              enabled: v.enabled,
              verify_inbound_signatures: v.verify_inbound_signatures,
              updated_at: v.updated_at,
              ...(r.inboundSecretIssued ? { inbound_secret: inboundSecret } : {}),
            },
          },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/endpoints/:id',
      auth: 'KS',
      invalidatesIngest: true,
      tag,
      summary: 'Delete a webhook endpoint; its events stay readable',
      params: idParams,
      responses: {
        200: { description: 'deleted', schema: z.object({ deleted: z.literal(true) }) },
        ...notFoundResponse,
      },
      handler: async ({ auth, params }) => {
        if (!(await softDeleteTarget(db, auth.orgId, params.id, webhooksOnly))) throw notFound('endpoint');
        return { body: { deleted: true } };
      },
    }),
  ];
}
