// The mailbox consumer loop: list UNREAD messages oldest first, claim, run the handler while keeping the
// lease alive, ack on success, and on failure do nothing so the lease lapses and the message is offered
// again. Consumers get this wrong by hand in three ways it guards against: a handler slower than the
// lease (it heartbeats at a third of the lease), a lease lost to another key (the handler's signal
// aborts and no ack is sent) and a transient error killing the loop (it backs off and goes on).
import { EvdsError } from './errors.ts';
import { backoffMs, pause } from './wait.ts';
import type { MailboxMessage, Query } from './types.ts';

/**
 * Handles one message; resolving acks it, throwing leaves it to lapse and be offered again.
 * `ctx.signal` aborts when the lease was lost (another key holds the message now): stop, it will not be acked.
 */
export type ConsumeHandler = (message: MailboxMessage, ctx: { signal: AbortSignal }) => Promise<void>;

export interface ConsumeEvent {
  type: 'claimed' | 'acked' | 'failed' | 'lease_lost' | 'skipped';
  messageId: string;
  /** The handler's error (`failed`), or what the service answered (`lease_lost`, `skipped`). */
  error?: unknown;
}

export interface ConsumeOptions {
  /** Messages handled at once (default 1); never more claims than this are held. */
  concurrency?: number;
  /** Stop after this many messages were handled (acked or failed); lost leases do not count. */
  max?: number;
  /** Wait when a pass over the mailbox claimed nothing (default 1000 ms). */
  pollIntervalMs?: number;
  /**
   * Stops the loop: nothing more is claimed, handlers in flight finish (their leases still kept) and
   * are acked as usual, then the summary resolves. Their `ctx.signal` is NOT aborted by it: that signal
   * means "this message will not be acked by you" (the lease was lost). A handler that wants to cut
   * its work short on shutdown can watch this signal itself.
   */
  signal?: AbortSignal;
  /** Called for every step, for live counters; an error thrown here is ignored. */
  onEvent?: (e: ConsumeEvent) => void;
}

export interface ConsumeSummary {
  acked: number;
  failed: number;
  lost: number;
}

/** The client's own mailbox methods, which the loop is bound to. */
export interface MailboxCalls {
  list(
    mailboxId: string,
    query: Query<'/api/v1/mailboxes/{mailbox_id}/messages'>,
  ): Promise<{ messages: MailboxMessage[]; next_cursor: string | null }>;
  claim(messageId: string): Promise<{ message: MailboxMessage }>;
  ack(messageId: string): Promise<{ message: MailboxMessage }>;
}

const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 30_000;
/** Claim and ack are safe to repeat by the key holding the lease, so a lost reply is tried again. */
const CALL_ATTEMPTS = 3;
const TRANSIENT_STATUS = new Set([0, 429, 500, 502, 503, 504]);

/** Errors that say nothing about the message or the key: the service was busy or unreachable. */
export function isTransient(err: unknown): boolean {
  return err instanceof EvdsError && (TRANSIENT_STATUS.has(err.status) || err.code === 'network_error');
}

/**
 * The lease length of a claim answer. Both ends are the service's clock, so a skewed client clock does
 * not matter; lease_expires_at - now would be wrong by the skew.
 */
export function leaseMsOf(message: Pick<MailboxMessage, 'claimed_at' | 'lease_expires_at'>): number {
  const seconds = (message.lease_expires_at ?? 0) - (message.claimed_at ?? 0);
  return Math.max(1, seconds) * 1000;
}

/** Exponential backoff with jitter, reset by the first success. */
export function createBackoff(firstMs = BACKOFF_FIRST_MS, maxMs = BACKOFF_MAX_MS) {
  let attempt = 0;
  return {
    next: () => backoffMs(firstMs, maxMs, attempt++),
    reset: () => void (attempt = 0),
  };
}

async function withRetries<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const backoff = createBackoff();
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= CALL_ATTEMPTS || !isTransient(err)) throw err;
      await pause(backoff.next(), signal);
    }
  }
}

/**
 * Re-claims at a third of the lease while the handler runs; a transient failure is tried again sooner.
 * Any other answer (409 `lease_held`, an acknowledged or expired message) means the lease is gone.
 */
function keepLease(calls: MailboxCalls, message: MailboxMessage, onLost: (err: unknown) => void) {
  const leaseMs = leaseMsOf(message);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const beat = async () => {
    try {
      await calls.claim(message.id);
      schedule(leaseMs / 3);
    } catch (err) {
      if (stopped) return;
      if (isTransient(err)) return schedule(leaseMs / 6);
      stopped = true;
      onLost(err);
    }
  };
  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(() => void beat(), ms);
  };
  schedule(leaseMs / 3);
  return {
    stop: () => {
      // A heartbeat still in flight answers into a stopped keeper and is ignored (even a 409 after the ack).
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs `handler` for the messages of a mailbox until `options.signal` aborts or `options.max` messages
 * were handled. Rejects only on an error that retrying cannot fix (a revoked key, an unknown mailbox),
 * after the handlers in flight have finished.
 */
export async function consumeMailbox(
  calls: MailboxCalls,
  mailboxId: string,
  handler: ConsumeHandler,
  options: ConsumeOptions = {},
): Promise<ConsumeSummary> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const pollMs = options.pollIntervalMs ?? 1000;
  const stop = options.signal;
  // A few pages' worth per slot: pages go stale while slots are busy (other consumers take messages).
  const pageSize = String(Math.min(100, Math.max(10, concurrency * 4)));
  const summary: ConsumeSummary = { acked: 0, failed: 0, lost: 0 };
  const inFlight = new Set<Promise<void>>();
  const backoff = createBackoff();
  const emit = (e: ConsumeEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      // a broken counter must not stop the consumer
    }
  };
  const handled = () => summary.acked + summary.failed;
  const finished = () => stop?.aborted === true || handled() >= max;
  // One listener for the whole run, so waiting for a slot leaves no timer or listener per wait.
  let onStop = () => {};
  const stopped = new Promise<void>((resolve) => (onStop = resolve));
  stop?.addEventListener('abort', onStop, { once: true });

  async function handle(message: MailboxMessage): Promise<void> {
    const lease = new AbortController();
    const keeper = keepLease(calls, message, (err) => {
      lease.abort(err);
      emit({ type: 'lease_lost', messageId: message.id, error: err });
    });
    let failure: { error: unknown } | undefined;
    try {
      await handler(message, { signal: lease.signal });
    } catch (error) {
      failure = { error };
    } finally {
      keeper.stop();
    }
    if (lease.signal.aborted) {
      summary.lost++;
      return;
    }
    if (failure) {
      // Nothing is sent: the lease lapses and the message is offered again (to any consumer).
      summary.failed++;
      return emit({ type: 'failed', messageId: message.id, error: failure.error });
    }
    try {
      await withRetries(() => calls.ack(message.id));
      summary.acked++;
      emit({ type: 'acked', messageId: message.id });
    } catch (err) {
      // 409: the lease passed before the ack; after retries a transient error leaves it to lapse too.
      summary.lost++;
      emit({ type: 'lease_lost', messageId: message.id, error: err });
    }
  }

  function start(message: MailboxMessage) {
    const task: Promise<void> = handle(message).finally(() => inFlight.delete(task));
    inFlight.add(task);
  }

  /** Waits for a free slot; false when the loop should stop instead. */
  async function slot(): Promise<boolean> {
    while (!finished() && (inFlight.size >= concurrency || handled() + inFlight.size >= max)) {
      await Promise.race([...inFlight, stopped]);
    }
    return !finished();
  }

  /** Claims one listed message; true when it was claimed and its handler started. */
  async function claim(listed: MailboxMessage): Promise<boolean> {
    try {
      const { message } = await withRetries(() => calls.claim(listed.id), stop);
      backoff.reset();
      emit({ type: 'claimed', messageId: message.id });
      start(message);
      return true;
    } catch (err) {
      const gone = err instanceof EvdsError && (err.status === 409 || err.status === 404);
      if (!gone && !isTransient(err)) throw err;
      emit({ type: 'skipped', messageId: listed.id, error: err });
      if (!gone) await pause(backoff.next(), stop);
      return false;
    }
  }

  /** One walk over the UNREAD messages, page by page; true when it claimed anything. */
  async function pass(): Promise<boolean> {
    let claimedAny = false;
    let after: string | undefined;
    do {
      let page: Awaited<ReturnType<MailboxCalls['list']>>;
      try {
        page = await calls.list(mailboxId, { status: 'UNREAD', limit: pageSize, after });
        backoff.reset();
      } catch (err) {
        if (!isTransient(err)) throw err;
        await pause(backoff.next(), stop);
        return true; // waited already; try again without the poll interval on top
      }
      for (const listed of page.messages) {
        if (!(await slot())) return claimedAny;
        if (await claim(listed)) claimedAny = true;
      }
      after = page.next_cursor ?? undefined;
    } while (after !== undefined && !finished());
    return claimedAny;
  }

  try {
    while (await slot()) {
      if (!(await pass()) && !finished()) await pause(pollMs, stop);
    }
  } finally {
    // Also on a fatal error: handlers in flight finish and ack before the promise settles.
    await Promise.all(inFlight);
    stop?.removeEventListener('abort', onStop);
  }
  return summary;
}
