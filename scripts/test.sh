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
pnpm test "$@"
