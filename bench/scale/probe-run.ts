// Runs bench/scale/probe.ts (ingest traffic at a fixed rate) as its own process and matches its
// answers against windows of wall-clock time, for the retention benchmark's "ingest latency during
// maintenance vs outside it".
import { spawn } from 'node:child_process';
import { r1, root } from '../setup.ts';

/** [scheduled send (epoch ms), latency ms, 1 if accepted] */
export type Sample = [sentAt: number, latency: number, ok: number];
export interface Window {
  start: number;
  end: number;
}

export function startProbe(o: { url: string; key: string; targets: string[]; rate: number }) {
  const samples: Sample[] = [];
  const child = spawn(
    process.execPath,
    [
      'bench/scale/probe.ts',
      '--url',
      o.url,
      '--key',
      o.key,
      '--targets',
      o.targets.join(','),
      '--rate',
      String(o.rate),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) samples.push(l.split(' ').map(Number) as Sample);
  });
  const closed = new Promise((r) => child.once('close', r));
  process.once('exit', () => child.kill('SIGTERM'));
  return {
    samples,
    async stop() {
      child.kill('SIGTERM');
      await closed;
    },
  };
}

const overlaps = ([at, ms]: Sample, w: Window) => at <= w.end && at + ms >= w.start;

/** Sorted latencies of the requests in flight at some time of one of the windows (or of none). */
export function latencies(samples: Sample[], windows: Window[], inside = true): number[] {
  return samples
    .filter((s) => windows.some((w) => overlaps(s, w)) === inside)
    .map(([, ms]) => ms)
    .sort((a, b) => a - b);
}

export interface LatencySummary {
  n: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

export const summary = (ms: number[]): LatencySummary => ({
  n: ms.length,
  p50: ms[Math.floor(ms.length * 0.5)] ?? null,
  p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] ?? null,
  max: ms.at(-1) ?? null,
});

export const shown = (s: LatencySummary) => `${r1(s.p50)} / ${r1(s.p99)} / ${r1(s.max)} (${s.n})`;
