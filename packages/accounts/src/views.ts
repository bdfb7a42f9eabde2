import type { Organization, PublicApiKey, PublicUser } from '@evds/db';
import { unixOrNull, unixSeconds } from '@evds/domain';
import { z } from 'zod';

export const orgSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  billing_status: z.enum(['pending', 'active', 'grace', 'suspended', 'exempt']),
  billing_grace_ends_at: z.number().int().nullable(),
  created_at: z.number().int(),
});

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  org_id: z.string(),
  created_at: z.number().int(),
});

export const keySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The first 12 characters of the key'),
  created_at: z.number().int(),
  last_used_at: z
    .number()
    .int()
    .nullable()
    .describe(
      'When the key last authenticated a request that was accepted, to within a minute (null: never)',
    ),
});

export const orgView = (o: Organization): z.infer<typeof orgSchema> => ({
  id: o.id,
  name: o.name,
  slug: o.slug,
  billing_status: o.billing_status,
  billing_grace_ends_at: unixOrNull(o.billing_grace_ends_at),
  created_at: unixSeconds(o.created_at),
});

export const userView = (u: PublicUser): z.infer<typeof userSchema> => ({
  id: u.id,
  email: u.email,
  name: u.name,
  org_id: u.org_id,
  created_at: unixSeconds(u.created_at),
});

export const keyView = (k: PublicApiKey): z.infer<typeof keySchema> => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: unixSeconds(k.created_at),
  last_used_at: unixOrNull(k.last_used_at),
});
