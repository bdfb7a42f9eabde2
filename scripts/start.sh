#!/usr/bin/env bash
# Start everything locally: install, Postgres and Redis, migrate, demo workspace, all services, one base URL.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec node scripts/start.ts
