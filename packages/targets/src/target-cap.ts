// The cap on targets per workspace (TARGETS_PER_ORG): webhook endpoints, mailboxes and a2a targets
// count together, whichever route created them. Without it one workspace could create targets without
// end, and every target is a row that lists, sweeps and health gauges walk.
import {
  countLiveTargets,
  createA2aTarget,
  createTarget,
  createWithinTargetCap,
  type Db,
  type NewA2aTargetInput,
  type NewTargetInput,
  type PublicTarget,
} from '@evds/db';
import { AppError } from '@evds/domain';
import { errorSchema } from '@evds/http';

const targetLimit = (cap: number): AppError =>
  new AppError(
    'target_limit',
    `a workspace holds at most ${cap} targets (webhook, mailbox and a2a together); delete one to create another`,
  );

/** The answer every create route documents for a workspace at its cap. */
export const targetLimitResponse = {
  409: {
    description:
      'the workspace already holds its maximum of targets, every kind together (target_limit; TARGETS_PER_ORG, 1000 by default)',
    schema: errorSchema,
  },
};

/** Inserts in a transaction that admits the target only below the cap (atomic under concurrency); 409 otherwise. */
async function underCap(
  db: Db,
  orgId: string,
  cap: number,
  insert: (tx: Db) => Promise<PublicTarget>,
): Promise<PublicTarget> {
  const r = await createWithinTargetCap(db, orgId, cap, insert);
  if (!r.ok) throw targetLimit(cap);
  return r.created;
}

export const createTargetUnderCap = (db: Db, cap: number, t: NewTargetInput): Promise<PublicTarget> =>
  underCap(db, t.org_id, cap, (tx) => createTarget(tx, t));

export const createA2aTargetUnderCap = (db: Db, cap: number, t: NewA2aTargetInput): Promise<PublicTarget> =>
  underCap(db, t.org_id, cap, (tx) => createA2aTarget(tx, t));

/**
 * An early, unlocked look before work outside the database (an Agent Card fetch), so a workspace at
 * its cap does not make the service fetch cards for creations that would be refused anyway. The
 * locked check at insert still decides.
 */
export async function requireTargetRoom(db: Db, orgId: string, cap: number): Promise<void> {
  if ((await countLiveTargets(db, orgId)) >= cap) throw targetLimit(cap);
}
