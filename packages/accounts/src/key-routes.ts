import { createApiKey, deleteApiKey, listApiKeys, type Db } from '@evds/db';
import { AppError, billingBlocks, newApiKey, newId, notFound, type BillingStatus } from '@evds/domain';
import { type RouteDef, defineRoute, idParams } from '@evds/http';
import { z } from 'zod';
import { keySchema, keyView } from './views.ts';

export function keyRoutes(deps: { db: Db; keysPerOrg: number }): RouteDef[] {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/keys',
      auth: 'KS',
      tag: 'api keys',
      summary: "The workspace's API keys (prefix only)",
      responses: { 200: { description: 'keys', schema: z.object({ keys: z.array(keySchema) }) } },
      handler: async ({ auth }) => ({ body: { keys: (await listApiKeys(db, auth.orgId)).map(keyView) } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/keys',
      auth: 'KS',
      tag: 'api keys',
      summary: 'Create an API key; the full key is returned only here',
      body: z.strictObject({ name: z.string().trim().min(1).max(200) }),
      responses: {
        201: {
          description: 'created',
          schema: z.object({ id: z.string(), name: z.string(), key: z.string() }),
        },
        402: { description: 'billing state pending or suspended' },
        409: { description: 'the workspace already holds its maximum of keys' },
      },
      handler: async ({ auth, body }) => {
        const fresh = newApiKey();
        const r = await createApiKey(
          db,
          {
            id: newId(),
            org_id: auth.orgId,
            name: body.name,
            key_hash: fresh.hash,
            prefix: fresh.prefix,
            created_by_user_id: auth.userId,
          },
          deps.keysPerOrg,
          (s) => billingBlocks(s as BillingStatus),
        );
        if (!r.ok && r.reason === 'billing')
          throw new AppError(
            'payment_required',
            'API keys cannot be created while billing is pending or suspended',
          );
        if (!r.ok) throw new AppError('key_limit', `a workspace holds at most ${deps.keysPerOrg} API keys`);
        return { status: 201, body: { id: r.key.id, name: r.key.name, key: fresh.key } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/keys/:id',
      auth: 'KS',
      invalidatesIngest: true,
      tag: 'api keys',
      summary: 'Delete an API key (not the last one, nor the one making the request)',
      params: idParams,
      responses: {
        200: { description: 'deleted', schema: z.object({ deleted: z.literal(true) }) },
        409: { description: 'last key, or the key in use' },
      },
      handler: async ({ auth, params }) => {
        const requestKey = auth.method === 'api_key' ? auth.keyId : null;
        const r = await deleteApiKey(db, auth.orgId, params.id, requestKey);
        switch (r) {
          case 'deleted':
            return { body: { deleted: true } };
          case 'not_found':
            throw notFound('API key');
          case 'in_use':
            throw new AppError('key_in_use', 'cannot delete the API key authenticating this request');
          case 'last_key':
            throw new AppError('last_key', "cannot delete the workspace's last API key");
        }
      },
    }),
  ];
}
