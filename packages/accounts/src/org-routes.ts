import { getOrganization, renameOrganization, type Db } from '@evds/db';
import { notFound } from '@evds/domain';
import { defineRoute, type RouteDef } from '@evds/http';
import { z } from 'zod';
import { orgSchema, orgView } from './views.ts';

export function orgRoutes(deps: { db: Db }): RouteDef[] {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/orgs',
      auth: 'KS',
      tag: 'organizations',
      summary: "The caller's organization",
      responses: { 200: { description: 'the organization', schema: z.object({ org: orgSchema }) } },
      handler: async ({ auth }) => {
        const org = await getOrganization(db, auth.orgId);
        if (!org) throw notFound('organization');
        return { body: { org: orgView(org) } };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/orgs',
      auth: 'KS',
      tag: 'organizations',
      summary: "Rename the caller's organization",
      body: z.strictObject({ name: z.string().trim().min(1).max(200) }),
      responses: { 200: { description: 'renamed', schema: z.object({ updated: z.literal(true) }) } },
      handler: async ({ auth, body }) => {
        await renameOrganization(db, auth.orgId, body.name);
        return { body: { updated: true } };
      },
    }),
  ];
}
