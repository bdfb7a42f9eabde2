export interface Batcher<T, R> {
  /** Resolves with this item's result once the batch holding it has run. */
  submit(item: T): Promise<R>;
}

export interface BatcherOptions {
  /** Items per run at most. */
  maxBatch: number;
  /** Runs under way at once; while all are busy, new items wait and go together in the next run. */
  maxInFlight: number;
  /**
   * How long an item that finds the batcher idle waits for others before its run starts (ms; default
   * 0). Items that arrive while a run is under way go in the next run as soon as it ends, as without
   * it. Only for work whose callers answer no one in the meantime.
   */
  lingerMs?: number;
}

interface Pending<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Micro-batching for hot paths: concurrent callers' items share one run (one transaction, one query).
 * A run starts at the end of the event loop's turn with every item submitted in that turn, so the
 * items of one job group, or the requests woken by one read from a socket, go together instead of
 * the first alone and the rest after it. At low load an item runs alone in the turn it came in, so
 * batching adds no latency; under load runs grow and the database does far fewer round trips. `run`
 * returns one result per item, in order; an Error in that list rejects only its own caller, a thrown
 * error rejects the whole batch.
 */
export function createBatcher<T, R>(
  run: (items: T[]) => Promise<(R | Error)[]>,
  opts: BatcherOptions,
): Batcher<T, R> {
  const queue: Pending<T, R>[] = [];
  let inFlight = 0;

  const flush = () => {
    while (inFlight < opts.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, opts.maxBatch);
      inFlight++;
      run(batch.map((p) => p.item))
        .then(
          (results) =>
            batch.forEach((p, i) => {
              const r = results[i];
              if (r instanceof Error) p.reject(r);
              else p.resolve(r as R);
            }),
          (err: unknown) => batch.forEach((p) => p.reject(err)),
        )
        .finally(() => {
          inFlight--;
          flush();
        });
    }
  };

  let lingering: ReturnType<typeof setTimeout> | undefined;
  const endLinger = () => {
    clearTimeout(lingering);
    lingering = undefined;
    flush();
  };
  let turnEnd: ReturnType<typeof setImmediate> | undefined;
  const atTurnEnd = () => {
    turnEnd = undefined;
    flush();
  };

  return {
    submit: (item) =>
      new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (lingering) {
          if (queue.length >= opts.maxBatch) endLinger();
        } else if (opts.lingerMs && inFlight === 0 && queue.length < opts.maxBatch) {
          lingering = setTimeout(endLinger, opts.lingerMs);
        } else if (queue.length >= opts.maxBatch || inFlight >= opts.maxInFlight) {
          // A full batch runs now; while every run is busy, the next takes the queue as one ends.
          flush();
        } else turnEnd ??= setImmediate(atTurnEnd);
      }),
  };
}
