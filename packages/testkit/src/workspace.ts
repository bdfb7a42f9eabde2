import { randomBytes } from 'node:crypto';
import { provisionWorkspace, type Workspace } from '@evds/accounts';
import type { Db } from '@evds/db';
import type { BillingStatus } from '@evds/domain';

export interface TestWorkspace extends Workspace {
  email: string;
  password: string;
  slug: string;
}

/** A provisioned organization with its first user and API key. */
export async function seedWorkspace(
  db: Db,
  opts: { billingStatus?: BillingStatus; name?: string } = {},
): Promise<TestWorkspace> {
  const tag = randomBytes(4).toString('hex');
  const input = {
    orgName: opts.name ?? `Org ${tag}`,
    slug: `org-${tag}`,
    email: `user-${tag}@example.test`,
    userName: `User ${tag}`,
    password: `pw-${randomBytes(8).toString('hex')}`,
    billingStatus: opts.billingStatus ?? 'exempt',
  };
  const ws = await provisionWorkspace(db, input);
  return { ...ws, email: input.email, password: input.password, slug: input.slug };
}
