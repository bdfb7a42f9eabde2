#!/usr/bin/env bash
# Sourced by the test script: the browser tests drive Debian's Chromium. When it is missing it is
# installed from Debian's packages (apt, as root or through sudo); CHROMIUM_PATH names the executable.
set -euo pipefail

find_chromium() {
  for c in "${CHROMIUM_PATH:-}" chromium chromium-browser; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
  done
  return 1
}

if ! CHROMIUM_PATH="$(find_chromium)"; then
  echo "chromium: not found, installing Debian's chromium package (a minute or two)" >&2
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo -n)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q >&2
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core >&2
  CHROMIUM_PATH="$(find_chromium)" || { echo "chromium: install failed" >&2; exit 1; }
fi
export CHROMIUM_PATH
