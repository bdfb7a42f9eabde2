// What the benchmark's load processes send to ingest (bench/load.ts, bench/scale/probe.ts): a pool of
// keep-alive connections (bench/raw-http.ts) and one item, about 200 bytes of JSON, of the given event
// type, as one ready request per target.
import { postBytes, RawPool } from './raw-http.ts';

export const ingestPool = (url: string, connections: number): RawPool => new RawPool(url, connections);

function ingestItem(key: string, eventType: string): { headers: Record<string, string>; body: string } {
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

/** The item's POST to /t/<target> for each target, each built once. */
export function ingestRequests(url: string, key: string, eventType: string, targets: string[]): Buffer[] {
  const { headers, body } = ingestItem(key, eventType);
  return targets.map((t) => postBytes(url, `/t/${t}`, headers, body));
}
