import { withTimeout } from '@evds/runtime';
import { Gauge, type Registry } from 'prom-client';
import { collectErrors } from './registry.ts';

// Gauges here are read when Prometheus scrapes, not kept up to date on the hot paths. Each reading is
// bounded in time; one that fails or runs late leaves its gauges empty for that scrape (an absent
// series, which alerting can see) and counts in evds_metrics_collect_errors_total.

/** One reading shared by the gauges of a scrape (prom-client collects them concurrently), reused for `reuseMs`. */
function shared<T>(read: () => Promise<T>, timeoutMs: number, reuseMs: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > reuseMs) {
      const value = withTimeout(read(), timeoutMs);
      value.catch(() => {}); // each gauge handles the rejection of the reading it awaits
      last = { at: now, value };
    }
    return last.value;
  };
}

export interface QueueStats {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Seconds since the oldest waiting job became ready (0 when none waits). */
  oldestWaitingAgeSeconds: number;
}

export const queueStates = ['waiting', 'active', 'delayed', 'failed'] as const;

/** Depth (jobs by state) and the age of the oldest waiting job, per queue. */
export function registerQueueGauges(
  registry: Registry,
  read: () => Promise<Record<string, QueueStats>>,
  opts: { timeoutMs?: number } = {},
): void {
  const reading = shared(read, opts.timeoutMs ?? 1000, 250);
  const errors = collectErrors(registry);
  new Gauge({
    name: 'evds_queue_jobs',
    help: 'Jobs in each BullMQ queue by state (waiting: ready and not yet taken by a worker)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const [queue, stats] of Object.entries(await reading()))
          for (const state of queueStates) this.set({ queue, state }, stats[state]);
      } catch {
        errors.inc({ collector: 'queue' });
      }
    },
  });
  new Gauge({
    name: 'evds_queue_oldest_waiting_age_seconds',
    help: 'How long the oldest waiting job of each queue has been ready without a worker taking it',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      // A failed reading is counted once, by the gauge above.
      const stats = await reading().catch(() => undefined);
      for (const [queue, s] of Object.entries(stats ?? {})) this.set({ queue }, s.oldestWaitingAgeSeconds);
    },
  });
}

/** Mailbox messages waiting for a consumer (UNREAD) or held by one (CLAIMED), across every mailbox. */
export function registerMailboxGauges(
  registry: Registry,
  read: () => Promise<{ UNREAD: number; CLAIMED: number }>,
  opts: { timeoutMs?: number; reuseMs?: number } = {},
): void {
  // Reused for a while: several scrapers (or replicas) must not turn into a stream of count queries.
  const reading = shared(read, opts.timeoutMs ?? 1000, opts.reuseMs ?? 10_000);
  const errors = collectErrors(registry);
  new Gauge({
    name: 'evds_mailbox_messages',
    help: 'Stored mailbox messages by state (UNREAD, CLAIMED), each count capped (see the runbook)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const counts = await reading();
        this.set({ state: 'UNREAD' }, counts.UNREAD);
        this.set({ state: 'CLAIMED' }, counts.CLAIMED);
      } catch {
        errors.inc({ collector: 'mailbox' });
      }
    },
  });
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** The Postgres pool's connections (total, idle), its size and the queries waiting for a connection. */
export function registerPoolGauges(registry: Registry, read: () => PoolStats | undefined): void {
  new Gauge({
    name: 'evds_db_pool_connections',
    help: 'Open Postgres connections of this process, by state (total, idle)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = read();
      if (!s) return;
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
    },
  });
  new Gauge({
    name: 'evds_db_pool_max_connections',
    help: 'Postgres connections this process may open (DB_POOL_SIZE, and the pool of named statements)',
    registers: [registry],
    collect() {
      const s = read();
      if (s) this.set(s.max);
    },
  });
  new Gauge({
    name: 'evds_db_pool_waiting_requests',
    help: 'Queries waiting for a free Postgres connection (above 0: the pool is saturated)',
    registers: [registry],
    collect() {
      const s = read();
      if (s) this.set(s.waiting);
    },
  });
}

/** Targets the service disabled itself after failing every attempt for AUTO_DISABLE_AFTER_SECONDS. */
export function registerTargetGauges(
  registry: Registry,
  read: () => Promise<{ autoDisabled: number }>,
  opts: { timeoutMs?: number; reuseMs?: number } = {},
): void {
  // A count over the targets table: reused for a while, like the mailbox backlog.
  const reading = shared(read, opts.timeoutMs ?? 1000, opts.reuseMs ?? 10_000);
  const errors = collectErrors(registry);
  new Gauge({
    name: 'evds_targets_auto_disabled',
    help: 'Live targets disabled automatically (every attempt failed for too long) and not enabled since',
    registers: [registry],
    async collect() {
      this.reset();
      try {
        this.set((await reading()).autoDisabled);
      } catch {
        errors.inc({ collector: 'targets' });
      }
    },
  });
}

/** How far the read replica (DATABASE_READ_URL) is behind the primary, in seconds. */
export function registerReplicaGauges(
  registry: Registry,
  read: () => Promise<number | null>,
  opts: { timeoutMs?: number } = {},
): void {
  const reading = shared(read, opts.timeoutMs ?? 1000, 250);
  const errors = collectErrors(registry);
  new Gauge({
    name: 'evds_db_replica_lag_seconds',
    help: 'Seconds the read replica is behind the primary (0 once it has replayed all it received)',
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const lag = await reading();
        if (lag !== null) this.set(lag);
      } catch {
        errors.inc({ collector: 'replica' });
      }
    },
  });
}
