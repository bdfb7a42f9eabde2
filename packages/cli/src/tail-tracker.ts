// What `evds events tail` remembers between polls: which events it has shown and their last status.
// Pure, so the rules (what counts as new, as a change, as settled) are tested without a service.

export interface Observed {
  id: string;
  status: string;
  event_type?: string | null;
  endpoint_id?: string;
  created_at?: string;
}

export type Change =
  { kind: 'new'; event: Observed } | { kind: 'status'; id: string; from: string; to: string };

/** Statuses an event leaves only by a replay: tail stops watching it there. */
export const settled = new Set(['DELIVERED', 'FAILED', 'EXPIRED', 'REPLAYED']);
const failedStatuses = new Set(['FAILED', 'EXPIRED']);

export interface TailCounts {
  seen: number;
  delivered: number;
  failed: number;
}

export function createTailTracker() {
  const last = new Map<string, string>();
  const watching = new Set<string>();
  let baselined = false;
  const counts: TailCounts = { seen: 0, delivered: 0, failed: 0 };

  const settle = (id: string, status: string) => {
    if (!settled.has(status)) return;
    if (!watching.delete(id)) return;
    if (status === 'DELIVERED') counts.delivered++;
    else if (failedStatuses.has(status)) counts.failed++;
  };

  return {
    counts,
    /** Events followed and not yet settled (polled one by one once they fall off the listed page). */
    watching: (): string[] => [...watching],
    /** Events listed by the first poll exist already: they are remembered, never shown. */
    baseline(events: readonly Observed[]): void {
      for (const e of events) last.set(e.id, e.status);
      baselined = true;
    },
    /** New events (oldest first) and status changes of followed ones since the last poll. */
    observe(events: readonly Observed[]): Change[] {
      if (!baselined) throw new Error('baseline() first');
      const changes: Change[] = [];
      for (const e of [...events].reverse()) {
        const before = last.get(e.id);
        if (before === undefined) {
          last.set(e.id, e.status);
          counts.seen++;
          watching.add(e.id);
          changes.push({ kind: 'new', event: e });
          settle(e.id, e.status);
        } else if (before !== e.status) {
          last.set(e.id, e.status);
          // Events that existed before tail started change silently: only new ones are followed.
          if (!watching.has(e.id)) continue;
          changes.push({ kind: 'status', id: e.id, from: before, to: e.status });
          settle(e.id, e.status);
        }
      }
      return changes;
    },
    /** True once `n` events were shown and every one of them settled. */
    doneAfter: (n: number): boolean => counts.seen >= n && watching.size === 0,
  };
}
