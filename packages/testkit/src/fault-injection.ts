// The five faults of the fault harness (faults.ts): worker SIGKILL, ingest replica SIGKILL, Redis
// restarted empty, Postgres stopped and started, receiver failing half its requests.
import { client } from './http.ts';
import type { FaultStack } from './faults.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const FAULTS = [
  'worker-kill',
  'ingest-kill',
  'redis-restart-empty',
  'postgres-outage',
  'receiver-failures',
] as const;
export type FaultName = (typeof FAULTS)[number];

export interface FaultWindow {
  name: FaultName;
  startedAt: number;
  endedAt: number;
  /** Postgres and Redis: from the moment the server was stopped to the moment it was started again. */
  outage?: { from: number; to: number };
  /** Postgres only: what the management API answered (a read) while the database was down. */
  apiProbe?: { status: number; retryAfter: string | null };
  detail: string;
}

export interface FaultOptions {
  /** How long Redis stays away before it starts again, empty. */
  redisDownMs?: number;
  postgresDownMs?: number;
  receiverFailMs?: number;
  receiverFailRate?: number;
}

/** Injects one fault and resolves once it is over (the replacement process ready, the server back). */
export async function injectFault(
  stack: FaultStack,
  name: FaultName,
  opts: FaultOptions = {},
): Promise<FaultWindow> {
  const startedAt = Date.now();
  const done = (detail: string, extra: Pick<FaultWindow, 'outage' | 'apiProbe'> = {}): FaultWindow => ({
    name,
    startedAt,
    endedAt: Date.now(),
    detail,
    ...extra,
  });
  switch (name) {
    case 'worker-kill': {
      const old = stack.worker;
      stack.worker = await stack.respawn(old);
      return done(`delivery worker pid ${old.child.pid} SIGKILLed, pid ${stack.worker.child.pid} started`);
    }
    case 'ingest-kill': {
      // The oldest replica; its successor goes last, so repeated kills take each replica in turn.
      const old = stack.ingest.shift();
      if (!old) throw new Error('no ingest replica');
      // The load balancer stops routing to the replica as it dies; requests in flight there are cut.
      const fresh = await stack.respawn(old);
      stack.ingest.push(fresh);
      return done(`ingest pid ${old.child.pid} SIGKILLed, pid ${fresh.child.pid} started`);
    }
    case 'redis-restart-empty': {
      await stack.redis.stop();
      const from = Date.now();
      await stack.redis.wipe();
      await sleep(Math.max(0, from + (opts.redisDownMs ?? 1500) - Date.now()));
      const to = Date.now();
      await stack.redis.start();
      return done(`redis down ${to - from} ms, restarted with no data`, { outage: { from, to } });
    }
    case 'postgres-outage': {
      await stack.postgres.stop();
      const from = Date.now();
      const probe = await client(stack.api.url)('/api/v1/targets', { key: stack.ws.apiKey });
      const apiProbe = { status: probe.status, retryAfter: probe.headers.get('retry-after') };
      await sleep(Math.max(0, from + (opts.postgresDownMs ?? 4000) - Date.now()));
      const to = Date.now();
      await stack.postgres.start();
      return done(
        `postgres down ${to - from} ms (back after ${Date.now() - startedAt} ms), api answered ${apiProbe.status}`,
        { outage: { from, to }, apiProbe },
      );
    }
    case 'receiver-failures': {
      const rate = opts.receiverFailRate ?? 0.5;
      stack.receiver.setFailureRate(rate);
      await sleep(opts.receiverFailMs ?? 6000);
      stack.receiver.setFailureRate(0);
      return done(`receiver failed ${Math.round(rate * 100)}% of requests for ${Date.now() - startedAt} ms`);
    }
  }
}
