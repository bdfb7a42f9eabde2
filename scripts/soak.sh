#!/usr/bin/env bash
# The soak (SOAK_MINUTES, default 10; SOAK_RATE requests/s, default 100): mixed load with a fault every
# minute over private Postgres and Redis instances of its own, then the reconciliation (nothing accepted
# may be lost) and each service's RSS at start and end. Not part of the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec node bench/soak.ts "$@"
