// Request pieces shared by the endpoint and target routes, and the network-policy check every URL a
// user gives goes through. A URL that is not a URL, or not https, is a 400 naming the field; one the
// policy refuses (private, loopback, link-local... wherever the host points) is a 422 with its reason.
import type { Discover } from '@evds/a2a';
import type { Db } from '@evds/db';
import { AppError } from '@evds/domain';
import { MAX_URL_LENGTH, type NetPolicy } from '@evds/netguard';
import type { Redis } from '@evds/queue';
import type { SecretBox } from '@evds/secrets';
import { z } from 'zod';

export const nameInput = z.string().trim().min(1).max(200);
export const descriptionInput = z.string().max(2000);
export const eventTypesInput = z
  .array(z.string().min(1).max(200))
  .max(100)
  .describe('Event types this target receives; empty (the default) receives every type');

/** Repeats in an event_types list mean nothing; keep the first of each. */
export const uniqueTypes = (types: string[]): string[] => [...new Set(types)];

export const urlInput = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH)
  .superRefine((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a valid absolute URL' });
      return;
    }
    if (url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'must be an https URL' });
    else if (url.username !== '' || url.password !== '')
      ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
  })
  .describe('HTTPS URL; refused (422) when it points at an address that is not public');

/** Throws 422 `url_refused` with the policy's reason when the URL may not be used. */
export async function requireAllowedUrl(policy: Pick<NetPolicy, 'checkUrl'>, url: string): Promise<void> {
  const verdict = await policy.checkUrl(url);
  if (!verdict.ok) throw new AppError('url_refused', `url: refused by the network policy: ${verdict.reason}`);
}

/**
 * What the target routes need: the database, the box sealing secrets, and the network policy (whose
 * lookup also guards the connection that fetches an Agent Card); Redis and its key prefix, where the
 * targets' circuits are. `discoverCard` replaces the card reader built from the policy.
 */
export interface TargetRouteDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  secrets: Pick<SecretBox, 'seal'>;
  netPolicy: NetPolicy;
  discoverCard?: Discover;
  /** Live targets of every kind one workspace may hold (TARGETS_PER_ORG). */
  targetsPerOrg: number;
}
