#!/usr/bin/env bash
# Browser test: installs what it needs if missing, then runs node's test runner.
#   bash e2e/run.sh            (from anywhere; builds the server if needed)
#   SERVER_BIN=/path/to/server bash e2e/run.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"

if [ ! -x /usr/bin/chromium ]; then
  echo "e2e: installing Debian's chromium" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends chromium
fi

cd "$HERE"
# playwright-core never downloads a browser; this is only belt and braces.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm ci --no-audit --no-fund || npm install --no-audit --no-fund

if [ -z "${SERVER_BIN:-}" ]; then
  (cd "$ROOT" && cargo build -p server)
  export SERVER_BIN="$ROOT/target/debug/server"
fi

node --test --test-reporter=spec "$HERE"/*.test.mjs
