export type Log = (msg: string) => void;

export interface Backing {
  url: string;
  // Stops only what the call that produced this backing started; a no-op otherwise.
  stop: () => Promise<void>;
}

export function borrowed(url: string): Backing {
  return { url, stop: () => Promise.resolve() };
}

// Callers may invoke stop() from several cleanup paths; the second call must not fail.
export function once(fn: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => (pending ??= fn());
}
