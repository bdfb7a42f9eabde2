// Signing-secret rotation for webhook targets. Rotate makes a new current secret (returned once) and
// keeps the old one as previous, so deliveries carry both signatures while receivers switch over;
// dropping the previous secret ends the rotation.
import { dropPreviousSigningSecret, rotateSigningSecret, type SigningSecretChange } from '@evds/db';
import { AppError, notFound } from '@evds/domain';
import { type RouteDef, defineRoute, idParams } from '@evds/http';
import { newSigningSecret } from '@evds/secrets';
import { z } from 'zod';
import { type TargetRouteDeps } from './inputs.ts';
import { errorSchema } from './views.ts';

const tag = 'targets';
const errors = {
  400: { description: 'the target is not a webhook target (it has no signing secret)', schema: errorSchema },
  404: { description: 'no such target in this organization', schema: errorSchema },
};

function settle(r: SigningSecretChange): void {
  switch (r) {
    case 'changed':
      return;
    case 'not_found':
      throw notFound('target');
    case 'not_webhook':
      throw new AppError('wrong_target_kind', 'only webhook targets have signing secrets');
  }
}

export function signingSecretRoutes(deps: Pick<TargetRouteDeps, 'db' | 'secrets'>): RouteDef[] {
  const { db, secrets } = deps;
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/targets/:id/signing-secret/rotate',
      auth: 'KS',
      tag,
      summary:
        'Start a signing-secret rotation: returns the new secret once; the old one stays valid as the ' +
        'previous secret (replacing any earlier previous) until it is dropped',
      params: idParams,
      responses: {
        200: {
          description: 'rotated',
          schema: z.object({
            secret: z.string().describe('The new current secret; never shown again'),
            has_previous_signing_secret: z.literal(true),
          }),
        },
        ...errors,
      },
      handler: async ({ auth, params }) => {
        const secret = newSigningSecret();
        const envelope = secrets.seal(secret, { id: params.id, column: 'signing_secret' });
        settle(await rotateSigningSecret(db, auth.orgId, params.id, envelope));
        return { body: { secret, has_previous_signing_secret: true } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/targets/:id/signing-secret/previous',
      auth: 'KS',
      tag,
      summary: 'End a rotation: deliveries are signed with the current secret only',
      params: idParams,
      responses: {
        200: {
          description: 'previous secret dropped (also when there was none)',
          schema: z.object({ has_previous_signing_secret: z.literal(false) }),
        },
        ...errors,
      },
      handler: async ({ auth, params }) => {
        settle(await dropPreviousSigningSecret(db, auth.orgId, params.id));
        return { body: { has_previous_signing_secret: false } };
      },
    }),
  ];
}
