#!/usr/bin/env bash
# Sourced by the start, test and bench scripts: makes Node 24 and pnpm available (fetching a
# project-local copy from the npm registry when the machine's Node is older) and installs the workspace.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_VERSION=24.21.0
PNPM_VERSION=10.34.9

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 24 ] || ! command -v pnpm >/dev/null 2>&1; then
  if [ ! -x "$ROOT/.tools/node_modules/.bin/node" ] || [ ! -x "$ROOT/.tools/node_modules/.bin/pnpm" ]; then
    echo "bootstrap: fetching node@$NODE_VERSION and pnpm@$PNPM_VERSION into .tools/" >&2
    mkdir -p "$ROOT/.tools"
    npm install --silent --no-save --no-package-lock --prefix "$ROOT/.tools" "node@$NODE_VERSION" "pnpm@$PNPM_VERSION" >&2
  fi
  export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
fi

if [ "$(node_major)" -lt 24 ]; then
  echo "bootstrap: Node 24 is required, found $(node --version)" >&2
  exit 1
fi

(cd "$ROOT" && pnpm install --frozen-lockfile --reporter=silent >&2)
