// a2a targets: creation reads the Agent Card (through the network policy) and keeps the interface it
// chose; refresh reads the card again and replaces that interface. A card that cannot be used is a
// 422 saying why; the bearer token is sealed at once and never shown again.
import { refreshTargetCard, type Discover } from '@evds/a2a';
import type { PublicTarget } from '@evds/db';
import { AppError, newId, notFound } from '@evds/domain';
import { type RouteDef, defineRoute, idParams } from '@evds/http';
import type { SecretBox } from '@evds/secrets';
import { z } from 'zod';
import { descriptionInput, nameInput, urlInput, type TargetRouteDeps } from './inputs.ts';
import { createA2aTargetUnderCap, requireTargetRoom } from './target-cap.ts';
import { errorSchema, targetSchema, targetView } from './views.ts';
import { withCircuits, type CircuitStore } from './health.ts';

export const a2aAuthInput = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('none') }),
    z.strictObject({
      type: z.literal('bearer'),
      token: z
        .string()
        .min(1)
        .max(8192)
        .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
    }),
  ])
  .describe(
    'How deliveries authenticate to the agent; a bearer token is stored encrypted and never returned',
  );

export const a2aCreateInput = z.strictObject({
  kind: z.literal('a2a'),
  name: nameInput,
  description: descriptionInput.optional(),
  agent_card_url: urlInput.describe('HTTPS URL of the Agent Card, fetched without following redirects'),
  auth: a2aAuthInput,
});

export const warningsSchema = z
  .array(z.string())
  .describe(
    'Advice about the card that did not prevent its use (e.g. it asks for auth the target does not send)',
  );

/** A card that could not be used becomes a 422 naming agent_card_url and the reason. */
function cardProblem(refused: boolean, reason: string): AppError {
  return new AppError(refused ? 'url_refused' : 'unprocessable', `agent_card_url: ${reason}`);
}

export async function createA2aTargetFromCard(
  deps: {
    db: TargetRouteDeps['db'];
    secrets: Pick<SecretBox, 'seal'>;
    discover: Discover;
    targetsPerOrg: number;
  },
  orgId: string,
  body: z.output<typeof a2aCreateInput>,
): Promise<{ target: PublicTarget; warnings: string[] }> {
  await requireTargetRoom(deps.db, orgId, deps.targetsPerOrg);
  const fetchedAt = new Date();
  const found = await deps.discover(body.agent_card_url, body.auth.type);
  if (!found.ok) throw cardProblem(found.refused, found.reason);
  const id = newId();
  const target = await createA2aTargetUnderCap(deps.db, deps.targetsPerOrg, {
    id,
    org_id: orgId,
    name: body.name,
    description: body.description || null,
    agent_card_url: body.agent_card_url,
    card: { iface: found.iface, card: found.card, etag: found.etag, fetchedAt },
    auth_type: body.auth.type,
    auth_token:
      body.auth.type === 'bearer'
        ? deps.secrets.seal(body.auth.token, { id, column: 'a2a_auth_token' })
        : null,
  });
  return { target, warnings: found.warnings };
}

export function a2aRefreshRoute(
  deps: { db: TargetRouteDeps['db']; discover: Discover } & CircuitStore,
): RouteDef {
  return defineRoute({
    method: 'post',
    path: '/api/v1/targets/:id/refresh',
    auth: 'KS',
    tag: 'targets',
    summary: "Read an a2a target's Agent Card again and replace its cached interface",
    params: idParams,
    responses: {
      200: {
        description: 'refreshed',
        schema: z.object({ target: targetSchema, warnings: warningsSchema }),
      },
      400: { description: 'the target is not an a2a target (wrong_target_kind)', schema: errorSchema },
      404: { description: 'no such target in this organization', schema: errorSchema },
      422: {
        description: 'the card cannot be read or used now; the target keeps its interface',
        schema: errorSchema,
      },
    },
    handler: async ({ auth, params }) => {
      const r = await refreshTargetCard(deps.db, deps.discover, auth.orgId, params.id);
      if (r.ok) {
        const [target] = await withCircuits(deps, [r.target], targetView);
        return { body: { target, warnings: r.warnings } };
      }
      switch (r.problem) {
        case 'not_found':
        case 'superseded':
          throw notFound('target');
        case 'wrong_kind':
          throw new AppError('wrong_target_kind', 'only a2a targets have an Agent Card to refresh');
        case 'refused':
          throw cardProblem(true, r.reason);
        case 'unusable':
          throw cardProblem(false, r.reason);
      }
    },
  });
}
