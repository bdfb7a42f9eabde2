import { insertItems, isDbUnavailable, isStatementTimeout, type Db, type NewItem } from '@evds/db';
import { JOB_GROUP_MAX, newJobGroup } from '@evds/queue';
import { createBatcher } from '@evds/runtime';

export interface GroupCommit {
  /** Resolves once the item, its payload and its usage record are committed (rejects if they are not). */
  commit(item: NewItem): Promise<void>;
}

/**
 * Accepted items from concurrent requests share transactions (see createBatcher). One batch runs at a
 * time, and the items that arrive while it runs go together in the next: at high load a commit carries
 * many rows and Postgres runs far fewer statements (each with its counter triggers), while each request
 * is still answered only once its own row is committed. With 64 connections on 2 cores this gave 4,900-
 * 5,000 items/s at 0.15 ms of ingest CPU per item, against 3,500-3,900/s at 0.19-0.24 ms with five
 * batches at a time. `afterCommit` runs before the answers (ingest enqueues there).
 */
export function createGroupCommit(
  db: Db,
  opts: { maxBatch: number; afterCommit: (items: NewItem[]) => Promise<void> },
): GroupCommit {
  const commitOne = async (grouped: NewItem): Promise<undefined | Error> => {
    const item = { ...grouped, jobGroup: undefined };
    try {
      await insertItems(db, [item]);
      await opts.afterCommit([item]);
      return undefined;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  const batching = { maxBatch: opts.maxBatch, maxInFlight: 1 };
  const batcher = createBatcher<NewItem, undefined>(async (batch) => {
    const items = inJobGroups(batch);
    try {
      await insertItems(db, items);
    } catch (err) {
      // A batch fails whole. Unless the database is away, one row may be the cause (say its target
      // vanished): commit the others one by one so only that request fails. A batch that ran out of
      // time (statement_timeout) is not split either: each row alone would wait as long again.
      if (items.length === 1 || isDbUnavailable(err) || isStatementTimeout(err)) throw err;
      return Promise.all(items.map(commitOne));
    }
    await opts.afterCommit(items);
    return items.map(() => undefined);
  }, batching);
  return { commit: (item) => batcher.submit(item) };
}

/**
 * The batch's webhook and a2a items, in groups of up to JOB_GROUP_MAX of one kind: each group is
 * enqueued as one delivery job (enqueueItems), and its items keep its number. An item alone stays as it
 * is (its own job). The items are copies: a batch that fails is committed again one by one, ungrouped.
 */
export function inJobGroups(items: NewItem[]): NewItem[] {
  const grouped = new Map<NewItem, number>();
  for (const kind of ['webhook', 'a2a'] as const) {
    const ofKind = items.filter((i) => i.kind === kind);
    for (let at = 0; at < ofKind.length; at += JOB_GROUP_MAX) {
      const group = ofKind.slice(at, at + JOB_GROUP_MAX);
      if (group.length < 2) continue;
      const number = newJobGroup();
      for (const item of group) grouped.set(item, number);
    }
  }
  return items.map((i) => (grouped.has(i) ? { ...i, jobGroup: grouped.get(i) } : i));
}
