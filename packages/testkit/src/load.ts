// An open-loop load generator for fault runs: a steady rate of ingestion requests spread over the
// ingest replicas that are up, each tagged with a unique X-Correlation-ID so its effect (or absence
// of one) can be found in Postgres afterwards, and every outcome recorded.
import { randomBytes } from 'node:crypto';

export interface LoadTarget {
  id: string;
  kind: 'webhook' | 'mailbox';
}

export interface RequestOutcome {
  seq: number;
  correlationId: string;
  target: LoadTarget;
  /** The replica's base URL. */
  replica: string;
  idempotencyKey: string | null;
  /** Sequence number of the request this one repeats (same Idempotency-Key, same body). */
  repeatOf: number | null;
  sentAt: number;
  endedAt: number;
  /** 0: no answer (connection refused or cut, time-out). */
  status: number;
  id: string | null;
  retryAfter: string | null;
  replayed: boolean;
  error: string | null;
}

export interface LoadOptions {
  apiKey: string;
  targets: LoadTarget[];
  /** The replicas to spread requests over, read before every request. */
  urls: () => string[];
  ratePerSecond: number;
  durationMs: number;
  /** Beyond this many requests in flight, sending waits (the rate drops rather than pile up). */
  maxInFlight?: number;
  timeoutMs?: number;
  /** Share of requests that carry an Idempotency-Key; each such request is sent twice. */
  idempotentShare?: number;
}

export interface RunningLoad {
  outcomes: RequestOutcome[];
  /** Resolves with every outcome once the duration has passed and the last answer arrived. */
  done: Promise<RequestOutcome[]>;
  stop(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startLoad(opts: LoadOptions): RunningLoad {
  const outcomes: RequestOutcome[] = [];
  const run = randomBytes(4).toString('hex');
  const maxInFlight = opts.maxInFlight ?? 400;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  let inFlight = 0;
  let seq = 0;
  let stopped = false;

  async function send(
    target: LoadTarget,
    body: string,
    idempotencyKey: string | null,
    repeatOf: number | null,
  ): Promise<RequestOutcome> {
    const n = seq++;
    const urls = opts.urls();
    const replica = urls[n % Math.max(1, urls.length)] ?? 'http://127.0.0.1:1';
    const correlationId = `ld-${run}-${n}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${opts.apiKey}`,
      'content-type': 'application/json',
      'x-correlation-id': correlationId,
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const outcome: RequestOutcome = {
      seq: n,
      correlationId,
      target,
      replica,
      idempotencyKey,
      repeatOf,
      sentAt: Date.now(),
      endedAt: 0,
      status: 0,
      id: null,
      retryAfter: null,
      replayed: false,
      error: null,
    };
    outcomes.push(outcome);
    inFlight++;
    try {
      const res = await fetch(`${replica}/t/${target.id}`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      outcome.status = res.status;
      outcome.retryAfter = res.headers.get('retry-after');
      outcome.replayed = res.headers.get('idempotent-replayed') === 'true';
      if (res.status === 202) outcome.id = (JSON.parse(text) as { id: string }).id;
      else outcome.error = text.slice(0, 200);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      outcome.error = cause?.code ?? (err as Error).name;
    } finally {
      outcome.endedAt = Date.now();
      inFlight--;
    }
    return outcome;
  }

  function fire(slot: number): void {
    const target = opts.targets[slot % opts.targets.length];
    if (!target) return;
    const body = JSON.stringify({ event_type: 'load.item', run, slot, at: new Date().toISOString() });
    const idempotent = (opts.idempotentShare ?? 0) > 0 && Math.random() < (opts.idempotentShare ?? 0);
    const key = idempotent ? `idem-${run}-${slot}` : null;
    void send(target, body, key, null).then((first) => {
      // The repeat: what a producer does when unsure its request landed.
      if (key && !stopped) void send(target, body, key, first.seq);
    });
  }

  const done = (async () => {
    const started = Date.now();
    const interval = 1000 / opts.ratePerSecond;
    let slot = 0;
    while (!stopped && Date.now() - started < opts.durationMs) {
      const due = Math.floor((Date.now() - started) / interval);
      // More than a second behind (the cap held sending back): skip ahead instead of bursting.
      if (due - slot > opts.ratePerSecond) slot = due - opts.ratePerSecond;
      while (slot < due && inFlight < maxInFlight) fire(slot++);
      await sleep(5);
    }
    stopped = true;
    // Answers still coming (a repeat may start right after its first answer): wait them out, bounded.
    const deadline = Date.now() + timeoutMs * 2 + 1000;
    while (inFlight > 0 && Date.now() < deadline) await sleep(20);
    return outcomes;
  })();

  return {
    outcomes,
    done,
    stop: () => {
      stopped = true;
    },
  };
}
