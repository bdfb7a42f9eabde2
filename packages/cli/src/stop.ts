// How long-running commands (tail, consume, listen) stop: SIGINT or SIGTERM, or a time limit, abort
// one signal; the command then finishes what is in flight and exits 0. A second SIGINT or SIGTERM
// means "now": the process exits at once with 130.

export interface Stopper {
  signal: AbortSignal;
  /** Why it stopped: 'signal', 'time' or whatever stop() was given. */
  reason(): string | null;
  stop(reason: string): void;
  dispose(): void;
}

export function createStopper(opts: { forSeconds?: number } = {}): Stopper {
  const controller = new AbortController();
  let why: string | null = null;
  const stop = (reason: string) => {
    if (controller.signal.aborted) return;
    why = reason;
    controller.abort(new Error(reason));
  };
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    stop('signal');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const timer =
    opts.forSeconds === undefined ? undefined : setTimeout(() => stop('time'), opts.forSeconds * 1000);
  return {
    signal: controller.signal,
    reason: () => why,
    stop,
    dispose: () => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Waits `ms`, or less when the signal aborts (never rejects): the client's own wait. */
export { pause } from '@evds/client';
