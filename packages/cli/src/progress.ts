// Live counters and progress bars for long commands (tail, consume, recover), drawn with cli-progress
// on stderr and only when a person watches: both stdout and stderr are terminals and --json is off.
// While one is drawn, the command's own lines are written above it (MultiBar.log), so the counter
// never breaks a line in half. Anywhere else these are no-ops and the output stays plain lines.
import { MultiBar, Presets } from 'cli-progress';
import type { Output } from './output.ts';

export interface Live<P extends Record<string, number>> {
  update(values: Partial<P> & { value?: number; total?: number }): void;
  stop(): void;
}

export const isInteractive = (out: Output): boolean =>
  !out.json && Boolean(process.stdout.isTTY) && Boolean(process.stderr.isTTY);

/**
 * A counter line (format with {name} tokens of `initial`) or, when `total` is given, a bar
 * ({bar} {value}/{total}). Call stop() before the command prints its summary.
 */
export function createLive<P extends Record<string, number>>(
  out: Output,
  format: string,
  initial: P,
  total = 0,
): Live<P> {
  if (!isInteractive(out)) return { update: () => undefined, stop: () => undefined };
  const multi = new MultiBar(
    { format, stream: process.stderr, hideCursor: true, clearOnComplete: true, fps: 5 },
    Presets.shades_classic,
  );
  const bar = multi.create(total, 0, initial);
  const payload: Record<string, number> = { ...initial };
  out.divert((text) => multi.log(text));
  let stopped = false;
  return {
    update: ({ value, total: newTotal, ...rest }) => {
      Object.assign(payload, rest);
      if (newTotal !== undefined) bar.setTotal(newTotal);
      bar.update(value ?? 0, payload);
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      multi.stop();
      out.divert(null);
    },
  };
}
