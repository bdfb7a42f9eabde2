/**
 * The V8 flags every service runs with: the image's NODE_OPTIONS (infra/Dockerfile, infra/k8s), and
 * what `scripts/start.ts` and the benchmark give the services they start. V8 lets each semi-space of
 * the young generation grow to 64 MiB on a large machine; capped at 16 MiB, ingest and the delivery
 * worker each peak about 70 MB lower in RSS, at the same CPU per item (bench/run.ts, A/B runs).
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=16';
