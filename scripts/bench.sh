#!/usr/bin/env bash
# The benchmarks (a few minutes each): services as separate processes on this machine; each prints a
# table and writes bench/results/. Not part of the test command.
#   ./scripts/bench.sh             throughput, latency, the latency floor, the pgbench ceiling, RSS (bench/run.ts)
#   ./scripts/bench.sh isolation   a healthy tenant with and without failing tenants (bench/isolation.ts)
#   ./scripts/bench.sh scale       reads, ingest and storage at SCALE_EVENTS events (default 10 million,
#                                  ~30 min); SCALE_MODE=retention: weeks of traffic under retention (bench/scale.ts)
#   ./scripts/bench.sh floor       the latency floors alone, on a Redis list and on BullMQ (bench/floor.ts)
#   ./scripts/bench.sh client      the typed client's CPU per send over a bare fetch (bench/client.ts)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
if [ "${1:-}" = isolation ]; then
  shift
  exec node bench/isolation.ts "$@"
fi
if [ "${1:-}" = scale ]; then
  shift
  exec node bench/scale.ts "$@"
fi
if [ "${1:-}" = floor ]; then
  shift
  exec node bench/floor.ts "$@"
fi
if [ "${1:-}" = client ]; then
  shift
  exec node bench/client.ts "$@"
fi
exec node bench/run.ts "$@"
