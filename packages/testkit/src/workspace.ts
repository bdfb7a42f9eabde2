import { randomBytes, scryptSync } from 'node:crypto';
import { hashPassword, provisionWorkspace, type Workspace } from '@evds/accounts';
import type { Db } from '@evds/db';
import type { BillingStatus } from '@evds/domain';

export interface TestWorkspace extends Workspace {
  email: string;
  password: string;
  slug: string;
}

// One password for every workspace this process seeds, hashed once: a hash costs about a quarter
// of a second of CPU and suites seed over a hundred workspaces. Tests tell users apart by email.
let seedPassword: Promise<{ password: string; passwordHash: string }> | undefined;
function sharedPassword(): Promise<{ password: string; passwordHash: string }> {
  seedPassword ??= (async () => {
    const password = `pw-${randomBytes(8).toString('hex')}`;
    return { password, passwordHash: await hashPassword(password) };
  })();
  return seedPassword;
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
    ...(await sharedPassword()),
    billingStatus: opts.billingStatus ?? 'exempt',
  };
  const ws = await provisionWorkspace(db, input);
  return { ...ws, email: input.email, password: input.password, slug: input.slug };
}

/**
 * Gives the workspace's user a password hash as the service stored them before the scrypt parameters
 * were raised (N=2^14), made here independently of the service's code.
 */
export async function giveLegacyPasswordHash(db: Db, ws: TestWorkspace): Promise<void> {
  const salt = randomBytes(16);
  const hash = scryptSync(ws.password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  const stored = ['scrypt', 16384, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
  await db.updateTable('users').set({ password_hash: stored }).where('id', '=', ws.userId).execute();
}
