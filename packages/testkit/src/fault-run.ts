// One fault run, shared by the fault suite and the soak: steady load over the ingest replicas, faults
// injected on a schedule while it runs, a bounded wait for every committed item to settle, then the
// reconciliation: overall, per fault (the requests sent while it lasted) and for the Postgres and
// Redis outages.
import { injectFault, type FaultName, type FaultOptions, type FaultWindow } from './fault-injection.ts';
import type { FaultStack } from './faults.ts';
import { startLoad, type LoadTarget, type RequestOutcome } from './load.ts';
import {
  collectFacts,
  figuresOf,
  formatFigures,
  storeChecks,
  waitForSettled,
  sentAndAnsweredWithin,
  type Facts,
  type Figures,
} from './reconcile.ts';

export interface ScheduledFault {
  /** Milliseconds after the load started (a fault never starts before the previous one ended). */
  atMs: number;
  name: FaultName;
}

export interface FaultRunOptions {
  targets: LoadTarget[];
  ratePerSecond: number;
  durationMs: number;
  idempotentShare?: number;
  faults: ScheduledFault[];
  faultOptions?: FaultOptions;
  /** Bound on the wait for every committed item to leave QUEUED/RETRYING after the load. */
  settleMs: number;
  /**
   * A fault's figures cover the requests in flight while it lasted, and those sent up to this long after
   * it ended (before the next began).
   */
  windowTailMs?: number;
  log?: (msg: string) => void;
}

export interface FaultRunResult {
  outcomes: RequestOutcome[];
  windows: FaultWindow[];
  facts: Facts;
  total: Figures;
  perFault: { window: FaultWindow; figures: Figures }[];
  /** Requests sent and answered while Postgres was down, and those answered otherwise than 503 + Retry-After. */
  outage: { checked: number; violations: RequestOutcome[] };
  /** Requests sent and answered while Redis was down, and those not accepted. */
  redisOutage: { checked: number; refused: RequestOutcome[] };
  /** Events still QUEUED/RETRYING when the wait ended. */
  pending: number;
  store: ReturnType<typeof storeChecks>;
  /** The printable reconciliation: one line per fault, the outage check and a summary. */
  lines: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runWithFaults(stack: FaultStack, opts: FaultRunOptions): Promise<FaultRunResult> {
  const log = opts.log ?? (() => undefined);
  const load = startLoad({
    apiKey: stack.ws.apiKey,
    targets: opts.targets,
    urls: () => stack.ingestUrls(),
    ratePerSecond: opts.ratePerSecond,
    // Stopped below: at durationMs, or later when slow faults (a busy machine) ran past it.
    durationMs: opts.durationMs * 2 + 120_000,
    ...(opts.idempotentShare !== undefined ? { idempotentShare: opts.idempotentShare } : {}),
  });
  const started = Date.now();
  const windows: FaultWindow[] = [];
  try {
    for (const f of opts.faults) {
      const wait = started + f.atMs - Date.now();
      if (wait > 0) await sleep(wait);
      log(`fault ${f.name} at ${Math.round((Date.now() - started) / 1000)} s`);
      const w = await injectFault(stack, f.name, opts.faultOptions);
      log(`fault ${f.name} over: ${w.detail}`);
      windows.push(w);
    }
  } finally {
    // A failed injection stops the load rather than leave it running against a broken stack.
    if (windows.length < opts.faults.length) load.stop();
  }
  // Load goes on for the duration, and at least windowTailMs past the last fault, so every fault has
  // traffic while it lasts and after it (how it heals) however long the faults took.
  const lastEnd = windows[windows.length - 1]?.endedAt ?? started;
  const until = Math.max(started + opts.durationMs, lastEnd + (opts.windowTailMs ?? 2000));
  await sleep(Math.max(0, until - Date.now()));
  load.stop();
  const outcomes = await load.done;
  log(`load done: ${outcomes.length} requests; waiting up to ${opts.settleMs} ms for deliveries`);
  const pending = await waitForSettled(stack.db, stack.ws.orgId, opts.settleMs);
  const facts = await collectFacts(stack.db, stack.ws.orgId, stack.receiver.tally);

  const tail = opts.windowTailMs ?? 2000;
  const perFault = windows.map((window, i) => {
    const until = Math.min(window.endedAt + tail, windows[i + 1]?.startedAt ?? Infinity);
    return {
      window,
      figures: figuresOf(
        // In flight at some point while it lasted (a request cut by a kill was sent just before it).
        outcomes.filter((o) => o.endedAt >= window.startedAt && o.sentAt < until),
        facts,
      ),
    };
  });
  const during = (name: FaultName) =>
    windows.flatMap((w) =>
      w.name === name && w.outage ? sentAndAnsweredWithin(outcomes, w.outage.from, w.outage.to) : [],
    );
  const pgDown = during('postgres-outage');
  const outage = {
    checked: pgDown.length,
    violations: pgDown.filter((o) => o.status !== 503 || !o.retryAfter),
  };
  // Redis holds no item: while it is away, ingestion goes on (lookups from Postgres, the sweeper enqueues).
  const redisDown = during('redis-restart-empty');
  const redisOutage = { checked: redisDown.length, refused: redisDown.filter((o) => o.status !== 202) };
  const total = figuresOf(outcomes, facts);
  const store = storeChecks(facts);

  const lines = perFault.map(({ window, figures }) =>
    formatFigures(`${window.name} [${window.detail}]`, figures),
  );
  lines.push(
    `postgres down: ${outage.checked} requests sent and answered during the outages, ` +
      `${outage.checked - outage.violations.length} answered 503 with Retry-After, ` +
      `${outage.violations.length} otherwise (${outage.violations.filter((o) => o.status === 202).length} of them 202)`,
  );
  lines.push(
    `redis down: ${redisOutage.checked} requests sent and answered during the outages, ` +
      `${redisOutage.checked - redisOutage.refused.length} accepted (202), ${redisOutage.refused.length} not`,
  );
  lines.push(formatFigures('all', total));
  lines.push(
    `summary: sent ${total.sent}, 202 ${total.accepted}, 503 ${total.unavailable}, ` +
      `other ${total.other + total.unanswered}, delivered ${total.delivered}, duplicates ${total.duplicates}, ` +
      `lost ${total.lost}`,
  );
  return { outcomes, windows, facts, total, perFault, outage, redisOutage, pending, store, lines };
}
