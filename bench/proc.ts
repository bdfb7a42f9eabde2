// What the benchmarks read from /proc: a process's peak memory, CPU time and write system calls, a
// server's over all its processes, and the whole machine's busy and stolen time.
import { readdirSync, readFileSync } from 'node:fs';
import type { ServiceProcess } from '@evds/testkit';

/** Peak resident set (VmHWM) in MB. */
export const peakRss = (p: ServiceProcess | undefined) => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p?.child.pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
};

/** What a process has used so far: CPU seconds (user + system) and write system calls (to sockets, mostly). */
export interface Usage {
  cpu: number;
  writes: number;
}

export const usageOf = (pid: number | string): Usage => {
  // Fields after the command name (which may hold spaces and parentheses): state is 3rd, utime 14th,
  // then stime, cutime and cstime: the children it has reaped (a Postgres server's ended connections)
  // count with it. /proc counts CPU in ticks of 1/100 s.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return { cpu: ticks / 100, writes: writesOf(pid) };
};

/** Write system calls so far; NaN where /proc does not show them (another user's process, unless root). */
function writesOf(pid: number | string): number {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

export const usage = (p: ServiceProcess | undefined) => usageOf(p?.child.pid ?? 0);
export const cpuSeconds = (p: ServiceProcess | undefined) => usage(p).cpu;

/**
 * The usage so far of every process of the server `command` (by executable name: the main process and
 * each Postgres connection). A connection that ends between two readings still counts, in the main
 * process's reaped children; only its write calls go with it.
 */
export function serverUsage(command: 'postgres' | 'redis-server'): Usage {
  const total = { cpu: 0, writes: 0 };
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== command) continue;
      const u = usageOf(pid);
      total.cpu += u.cpu;
      total.writes += u.writes;
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

export const serverCpuSeconds = (command: 'postgres' | 'redis-server') => serverUsage(command).cpu;

/**
 * CPU seconds the whole machine has spent busy (user, nice, system, interrupts) and stolen by its host,
 * all cores together, from /proc/stat (in ticks of 1/100 s).
 */
export function machineCpuSeconds(): { busy: number; steal: number } {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = readFileSync(
    '/proc/stat',
    'utf8',
  )
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: (user + nice + system + irq + softirq) / 100, steal: steal / 100 };
}

/** One reading of a phase: when, the machine, and each process of the pipeline (two by pid, two servers). */
export interface PhaseReading {
  at: number;
  machine: { busy: number; steal: number };
  of: Record<'ingest' | 'worker' | 'postgres' | 'redis', Usage>;
}

export const readPhase = (pids: { ingest?: number; worker?: number }): PhaseReading => ({
  at: performance.now(),
  machine: machineCpuSeconds(),
  of: {
    ingest: usageOf(pids.ingest ?? 0),
    worker: usageOf(pids.worker ?? 0),
    postgres: serverUsage('postgres'),
    redis: serverUsage('redis-server'),
  },
});

/** Between two readings of a phase that handled `items`: cores busy and stolen, CPU ms and writes per item. */
export function phaseCost(start: PhaseReading, end: PhaseReading, items: number) {
  const seconds = (end.at - start.at) / 1000;
  const perItem = (f: (u: Usage) => number) =>
    Object.fromEntries(
      Object.entries(end.of).map(([k, u]) => [
        k,
        (f(u) - f(start.of[k as keyof PhaseReading['of']])) / items,
      ]),
    ) as Record<keyof PhaseReading['of'], number>;
  return {
    cores: {
      busy: (end.machine.busy - start.machine.busy) / seconds,
      steal: (end.machine.steal - start.machine.steal) / seconds,
    },
    cpuMsPerItem: perItem((u) => u.cpu * 1000),
    writesPerItem: perItem((u) => u.writes),
  };
}
