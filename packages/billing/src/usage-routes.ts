import { getOrganization, type Db } from '@evds/db';
import { notFound } from '@evds/domain';
import { defineRoute, type RouteDef } from '@evds/http';
import { z } from 'zod';
import { localUsage } from './local-usage.ts';
import { usageSchema } from './views.ts';

export function usageRoutes(deps: { db: Db; now?: () => Date }): RouteDef[] {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/usage',
      auth: 'KS',
      tag: 'billing',
      summary: "The current month's usage from the local ledger, with the estimated charge",
      responses: { 200: { description: 'usage', schema: z.object({ usage: usageSchema }) } },
      handler: async ({ auth }) => {
        const org = await getOrganization(db, auth.orgId);
        if (!org) throw notFound('organization');
        return { body: { usage: await localUsage(db, auth.orgId, org.billing_status, now()) } };
      },
    }),
  ];
}
