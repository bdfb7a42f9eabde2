#!/usr/bin/env bash
# Start everything locally: install, Postgres and Redis, migrate, demo workspace, all services, the
# dashboard (its web app built when missing or stale) and a local HTTPS inbox; prints the URLs and login.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec node scripts/start.ts
