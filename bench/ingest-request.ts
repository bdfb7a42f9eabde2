// What the benchmark's load processes send to ingest (bench/load.ts, bench/scale/probe.ts): a pool of
// keep-alive connections and one item, about 200 bytes of JSON, of the given event type.
import { Pool } from 'undici';

export const ingestPool = (url: string, connections: number): Pool =>
  new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 60_000 });

export function ingestItem(
  key: string,
  eventType: string,
): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'x-event-type': eventType,
    },
    body: JSON.stringify({
      event_type: eventType,
      order: { id: 12345, items: [{ sku: 'A-1', qty: 2 }], total: '19.90' },
      note: 'x'.repeat(120),
    }),
  };
}
