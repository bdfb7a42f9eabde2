// The dashboard's reads, timed through the API's HTTP routes with an API key: each one called
// sequentially (after a warm-up) up to `calls` times or for at most `budgetSeconds`, whichever ends
// first, so a slow read on a large database cannot hold the run for hours.
import { pct } from '../setup.ts';

export interface ReadInputs {
  targetId: string;
  eventType: string;
  correlationId: string;
  /** Event ids to ask for one at a time (cycled through, so one cached row does not flatter the detail). */
  eventIds: string[];
  /** An id deep in the organization's list (newest first), for the keyset cursor. */
  deepId: string | null;
}

export interface ReadResult {
  read: string;
  path: string;
  calls: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  /** Set when the read was not timed (e.g. the route does not take the parameter yet) or failed. */
  note?: string;
  /** From the last answer of a list read: its total, to show the read answered in full. */
  total?: number;
}

export function dashboardReads(i: ReadInputs): { read: string; path: string | ((n: number) => string) }[] {
  const q = (params: Record<string, string>) => `/api/v1/events?${new URLSearchParams(params).toString()}`;
  const ev = (n: number) => `/api/v1/events/${i.eventIds[n % i.eventIds.length] ?? 'none'}`;
  return [
    { read: 'events, no filter', path: q({}) },
    { read: 'events, endpoint_id', path: q({ endpoint_id: i.targetId }) },
    { read: 'events, status=DELIVERED', path: q({ status: 'DELIVERED' }) },
    { read: 'events, status=RETRYING', path: q({ status: 'RETRYING' }) },
    { read: 'events, event_type', path: q({ event_type: i.eventType }) },
    { read: 'events, correlation_id', path: q({ correlation_id: i.correlationId }) },
    {
      read: 'events, endpoint_id + status=RETRYING',
      path: q({ endpoint_id: i.targetId, status: 'RETRYING' }),
    },
    {
      read: 'events, endpoint_id + event_type',
      path: q({ endpoint_id: i.targetId, event_type: i.eventType }),
    },
    { read: 'events, offset=100000', path: q({ offset: '100000' }) },
    { read: 'events, after=<deep id> (keyset)', path: q({ after: i.deepId ?? 'none' }) },
    { read: 'event detail /events/:id', path: ev },
    ...(['1h', '24h', '7d', '30d'] as const).map((w) => ({
      read: `stats ${w}`,
      path: `/api/v1/stats?window=${w}`,
    })),
    ...(['1h', '24h', '7d', '30d'] as const).map((w) => ({
      read: `stats/timeseries ${w}`,
      path: `/api/v1/stats/timeseries?window=${w}`,
    })),
    { read: 'usage', path: '/api/v1/usage' },
  ];
}

export async function timeReads(
  apiUrl: string,
  apiKey: string,
  inputs: ReadInputs,
  o: { calls: number; warmup: number; budgetSeconds: number; log: (m: string) => void },
): Promise<ReadResult[]> {
  const headers = { authorization: `Bearer ${apiKey}` };
  const call = async (path: string) => {
    const t = performance.now();
    const res = await fetch(`${apiUrl}${path}`, { headers });
    const text = await res.text();
    return { ms: performance.now() - t, status: res.status, text };
  };
  const results: ReadResult[] = [];
  for (const { read, path } of dashboardReads(inputs)) {
    const at = (n: number) => (typeof path === 'string' ? path : path(n));
    const shown = at(0);
    const first = await call(shown);
    if (first.status !== 200) {
      const note =
        first.status === 400 && read.includes('keyset')
          ? 'skipped: the route answers 400 to after= (no keyset cursor yet)'
          : `answered ${first.status}: ${first.text.slice(0, 200)}`;
      o.log(`${read}: ${note}`);
      results.push({ read, path: shown, calls: 0, p50: null, p99: null, max: null, note });
      continue;
    }
    for (let n = 1; n < o.warmup; n++) await call(at(n));
    const ms: number[] = [];
    const deadline = performance.now() + o.budgetSeconds * 1000;
    let last = first;
    while (ms.length < o.calls && performance.now() < deadline) {
      last = await call(at(o.warmup + ms.length));
      if (last.status !== 200) throw new Error(`${read} answered ${last.status}: ${last.text.slice(0, 200)}`);
      ms.push(last.ms);
    }
    ms.sort((a, b) => a - b);
    const total = (JSON.parse(last.text) as { total?: unknown }).total;
    const result: ReadResult = {
      read,
      path: shown,
      calls: ms.length,
      p50: pct(ms, 50),
      p99: pct(ms, 99),
      max: ms.at(-1) ?? null,
      ...(typeof total === 'number' ? { total } : {}),
      ...(ms.length < o.calls ? { note: `stopped after ${o.budgetSeconds} s` } : {}),
    };
    o.log(
      `${read}: p50 ${result.p50?.toFixed(1)} ms, p99 ${result.p99?.toFixed(1)} ms over ${ms.length} calls`,
    );
    results.push(result);
  }
  return results;
}
