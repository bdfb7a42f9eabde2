// POST /api/v1/billing/webhook: not a customer route. It takes only calls signed by the payment
// processor, and none at all while live billing is disabled or no secret is configured. A signed
// invoice event makes the service read that customer's invoices again and apply the billing moves:
// the processor's own invoice list decides, so events arriving late or out of order cannot mislead it.
import { findBillingAccountByCustomer } from '@evds/db';
import { AppError } from '@evds/domain';
import { defineRoute, type RouteDef, errorSchema } from '@evds/http';
import { z } from 'zod';
import type { BillingRouteDeps } from './billing-routes.ts';
import { BILLING_SIGNATURE_HEADER, verifyBillingSignature } from './signature.ts';
import { evaluateBillingAccount } from './task.ts';

const event = z.looseObject({ type: z.string().max(200), customer_id: z.string().max(200).optional() });

export function webhookRoute(deps: BillingRouteDeps): RouteDef {
  const now = deps.now ?? (() => new Date());
  return defineRoute({
    method: 'post',
    path: '/api/v1/billing/webhook',
    auth: 'P',
    tag: 'billing',
    summary:
      'Reserved for the payment processor (not a customer route): a JSON event {type, customer_id} signed in X-Billing-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">',
    responses: {
      200: { description: 'signed event received', schema: z.object({ received: z.literal(true) }) },
      400: { description: 'signed, but not a {type, customer_id} event', schema: errorSchema },
      403: { description: 'signature missing, wrong or older than 5 minutes', schema: errorSchema },
      503: {
        description: 'live billing is disabled or no webhook secret is configured: every call is refused',
        schema: errorSchema,
      },
    },
    // Before the body is even read: while disabled nothing about a request matters.
    before: (_req, _res, next) => {
      if (!deps.processor.enabled || !deps.webhookSecret)
        return next(
          new AppError('billing_disabled', 'live billing is disabled; processor webhooks are refused'),
        );
      next();
    },
    handler: async ({ req }) => {
      const at = now();
      if (!verifyBillingSignature(deps.webhookSecret, req.get(BILLING_SIGNATURE_HEADER), req.rawBody, at))
        throw new AppError('signature_invalid', `missing or invalid ${BILLING_SIGNATURE_HEADER}`);
      const parsed = event.safeParse(req.body);
      if (!parsed.success)
        throw new AppError('validation_failed', 'body: expected a JSON event {type, customer_id}');
      const { type, customer_id: customer } = parsed.data;
      if (!type.startsWith('invoice.') || !customer) return { body: { received: true } };
      const account = await findBillingAccountByCustomer(deps.db, customer);
      if (!account) return { body: { received: true } };
      // A move of the organization's billing state must reach ingest, which caches it; nothing else does.
      const moved = await evaluateBillingAccount(deps, account, at);
      return { body: { received: true }, invalidatesIngest: moved !== null };
    },
  });
}
