// The two shapes of a target row: the legacy endpoint (webhooks only, event_types as a JSON-encoded
// string) and the unified target. Neither ever carries a stored secret; a secret appears only in the
// answer that created it.
import type { PublicTarget } from '@evds/db';
import { unixSeconds } from '@evds/domain';
import type { CircuitView } from '@evds/flow';
import { z } from 'zod';
import { disabledReasonSchema, healthSchema, healthView } from './health.ts';

export const SIGNING_SCHEME = 'standard-webhooks-v1';

export { errorSchema } from '@evds/http';

export const endpointSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  description: z.string().describe('Empty when none was given'),
  event_types: z
    .string()
    .describe('A JSON-encoded array of event types, e.g. "[\\"a\\",\\"b\\"]"; "[]" receives every type'),
  max_payload_bytes: z.number().int(),
  max_retries: z.number().int(),
  retry_interval_seconds: z.number().int(),
  enabled: z.boolean(),
  verify_inbound_signatures: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  disabled_reason: disabledReasonSchema,
  health: healthSchema,
});
export type EndpointView = z.infer<typeof endpointSchema>;

export const endpointPatchSchema = endpointSchema
  .pick({
    id: true,
    name: true,
    url: true,
    description: true,
    event_types: true,
    enabled: true,
    verify_inbound_signatures: true,
    updated_at: true,
  })
  .extend({
    inbound_secret: z
      .string()
      .optional()
      .describe('Only in the answer that turned verify_inbound_signatures on; never shown again'),
  });

const targetBase = {
  id: z.string(),
  name: z.string(),
  description: z.string().describe('Empty when none was given'),
  enabled: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  disabled_reason: disabledReasonSchema,
  health: healthSchema,
};

export const webhookTargetSchema = z.object({
  ...targetBase,
  kind: z.literal('webhook'),
  url: z.string(),
  signing_scheme: z.literal(SIGNING_SCHEME),
  has_previous_signing_secret: z.boolean().describe('True while a signing-secret rotation is under way'),
});

export const mailboxTargetSchema = z.object({ ...targetBase, kind: z.literal('mailbox') });

export const a2aInterfaceSchema = z
  .object({
    url: z.string(),
    binding: z.string().describe('The protocol binding as the card names it (HTTP+JSON)'),
    version: z.string().describe('The A2A protocol version of the interface (1.x)'),
    tenant: z.string().optional().describe('Sent as a path segment and in the body when the card gives one'),
  })
  .describe(
    'The interface chosen from the Agent Card: its first HTTP+JSON 1.x entry with an allowed https URL',
  );

export const a2aTargetSchema = z.object({
  ...targetBase,
  kind: z.literal('a2a'),
  url: z.string().nullable().describe('The A2A interface URL taken from the Agent Card'),
  agent_card_url: z.string().nullable(),
  interface: a2aInterfaceSchema.nullable(),
  card_fetched_at: z.number().int().nullable().describe('When the Agent Card was last read (Unix seconds)'),
  auth: z.object({ type: z.enum(['none', 'bearer']) }).describe('The bearer token is never shown'),
});

export const targetSchema = z.discriminatedUnion('kind', [
  webhookTargetSchema,
  mailboxTargetSchema,
  a2aTargetSchema,
]);
export type TargetView = z.infer<typeof targetSchema>;

export const createdTargetSchema = z.discriminatedUnion('kind', [
  webhookTargetSchema.extend({
    secret: z.string().describe('whsec_ + base64 of 32 random bytes; returned only here and by rotate'),
  }),
  mailboxTargetSchema,
  a2aTargetSchema,
]);

/** `circuit`: the target's circuit from Redis, null when it could not be read. */
export const endpointView = (t: PublicTarget, circuit: CircuitView | null): EndpointView => ({
  id: t.id,
  name: t.name,
  url: t.url ?? '',
  description: t.description ?? '',
  event_types: JSON.stringify(t.event_types),
  max_payload_bytes: t.max_payload_bytes,
  max_retries: t.max_retries,
  retry_interval_seconds: t.retry_interval_seconds,
  enabled: t.enabled,
  verify_inbound_signatures: t.verify_inbound_signatures,
  created_at: unixSeconds(t.created_at),
  updated_at: unixSeconds(t.updated_at),
  disabled_reason: t.disabled_reason,
  health: healthView(t, circuit),
});

/** `circuit`: the target's circuit from Redis, null when it could not be read. */
export function targetView(t: PublicTarget, circuit: CircuitView | null): TargetView {
  const common = <K extends PublicTarget['kind']>(kind: K) => ({
    id: t.id,
    kind,
    name: t.name,
    description: t.description ?? '',
    enabled: t.enabled,
    created_at: unixSeconds(t.created_at),
    updated_at: unixSeconds(t.updated_at),
    disabled_reason: t.disabled_reason,
    health: healthView(t, circuit),
  });
  switch (t.kind) {
    case 'webhook':
      return {
        ...common('webhook'),
        url: t.url ?? '',
        signing_scheme: SIGNING_SCHEME,
        has_previous_signing_secret: t.has_previous_signing_secret,
      };
    case 'mailbox':
      return common('mailbox');
    case 'a2a': {
      const iface = t.a2a_interface;
      return {
        ...common('a2a'),
        url: iface?.url ?? t.url,
        agent_card_url: t.agent_card_url,
        interface: iface
          ? {
              url: iface.url,
              binding: iface.binding,
              version: iface.version,
              ...(iface.tenant ? { tenant: iface.tenant } : {}),
            }
          : null,
        card_fetched_at: t.a2a_card_fetched_at ? unixSeconds(t.a2a_card_fetched_at) : null,
        auth: { type: t.a2a_auth_type ?? 'none' },
      };
    }
  }
}
