// The waits every loop of the client shares: an abortable pause and the jittered exponential backoff.

/** Resolves after `ms`, or at once when `signal` aborts (never rejects); leaves no timer or listener behind. */
export function pause(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The wait before retry `attempt` (0-based): `firstMs` doubled each time, capped, jittered to half-to-all of it. */
export const backoffMs = (firstMs: number, maxMs: number, attempt: number): number =>
  Math.min(maxMs, firstMs * 2 ** attempt) * (0.5 + Math.random() / 2);
