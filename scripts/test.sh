#!/usr/bin/env bash
# The whole check, from a fresh clone: install (Node 24, pnpm, dependencies, Debian's Chromium for the
# browser tests), verify (format, lint, typecheck), build the dashboard's web app, then every test
# against real Postgres and Redis (found or started by the test harness) and a real browser.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
source scripts/chromium.sh
pnpm run verify
pnpm run build
# Given paths, jest runs just those. Otherwise every suite runs, and the ones that hold the service to
# a latency bound go last, alone: beside another suite's stack on a 2-core machine, they would measure
# the machine rather than the service.
for arg in "$@"; do [[ $arg == -* ]] || exec pnpm test "$@"; done
ALONE='tests/e2e/isolation[.]test[.]ts'
pnpm test "$@" --testPathIgnorePatterns "$ALONE"
pnpm test "$@" --runInBand --testPathPatterns "$ALONE"
