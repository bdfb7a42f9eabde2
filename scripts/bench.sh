#!/usr/bin/env bash
# The benchmark (about 3 minutes): services as separate processes on this machine; prints a table and
# writes bench/results/<time>.json. Not part of the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec node bench/run.ts "$@"
