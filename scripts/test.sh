#!/usr/bin/env bash
# The whole check, from a fresh clone: install (Node 24, pnpm, dependencies), verify (format, lint,
# typecheck), then every test against real Postgres and Redis (found or started by the test harness).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
pnpm run verify
pnpm test "$@"
