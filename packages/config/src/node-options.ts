/**
 * The V8 flags every service runs with: the image's NODE_OPTIONS (infra/Dockerfile, infra/k8s), and
 * what `scripts/start.ts` and the benchmark give the services they start. V8 lets each semi-space of
 * the young generation grow to 64 MiB on a large machine; capped at 16 MiB, ingest and the delivery
 * worker each peak about 70 MB lower in RSS, at the same CPU per item (bench/run.ts, A/B runs).
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=16';

/**
 * Old-generation caps (MB) of the services that hold little on the heap: ingest keeps request bodies
 * and the delivery worker keeps payloads as Buffers, outside it. Left to itself V8 lets their heaps
 * grow to 120-160 MB of mostly garbage under load; capped, both peak under 200 MB RSS at the same CPU
 * per item (bench/run.ts), and both still take bodies and payloads of the largest size at full
 * concurrency (tests/e2e/heap-cap.test.ts). The api, the a2a worker (which builds each request as a
 * string around the payload) and the dashboard keep V8's own limit.
 */
export const SERVICE_HEAP_MB: Readonly<Record<string, number>> = { ingest: 96, 'delivery-worker': 96 };

/**
 * Young-generation semi-spaces (MB) smaller than the common 16. The delivery worker's garbage is
 * per-attempt state that dies within milliseconds: 8 MiB semi-spaces lowered its peak RSS by 10-20 MB
 * in the benchmark's drain at the same CPU per delivery (bench/run.ts, A/B runs).
 */
export const SERVICE_SEMI_SPACE_MB: Readonly<Record<string, number>> = { 'delivery-worker': 8 };

/** NODE_OPTIONS for one service: the common flags (or its own young generation), plus its heap cap. */
export function serviceNodeOptions(service: string): string {
  const semi = SERVICE_SEMI_SPACE_MB[service];
  const common = semi === undefined ? SERVICE_NODE_OPTIONS : `--max-semi-space-size=${semi}`;
  const cap = SERVICE_HEAP_MB[service];
  return cap === undefined ? common : `${common} --max-old-space-size=${cap}`;
}
