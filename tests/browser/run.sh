#!/usr/bin/env bash
# Runs the browser tests of the web GUI on a fresh machine: installs Chromium if missing,
# npm ci (playwright-core only), builds the server, starts it on a free port with a fresh
# database, runs `node --test tests/browser/` (two files at a time), stops the server, exits with node's status.
# SERVER_CMD may name an already built server command (e.g. "target/release/chess5d serve").
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ -z "${CHROMIUM_PATH:-}" ]; then
  if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
  fi
  CHROMIUM_PATH="$(command -v chromium)"
fi
export CHROMIUM_PATH

[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund

if [ -z "${SERVER_CMD:-}" ]; then
  target="${CARGO_TARGET_DIR:-target}"
  if [ -x "$target/release/chess5d" ] && "$target/release/chess5d" serve --help 2>&1 | grep -q 'chess5d serve'; then
    SERVER_CMD="$target/release/chess5d serve"
  else
    cargo build --release -p chess5d-server --example serve
    SERVER_CMD="$target/release/examples/serve"
  fi
fi
export SERVER_CMD

tmp="$(mktemp -d)"
# shellcheck disable=SC2086
# The tests make many engine games, analysis boards, imports, challenges, puzzles and computer
# reviews from one address, several files at once (a second review of one client would end its
# first; an analysis board of one file holds its puzzle-proof place while another file proves a
# puzzle): the per-client limits are raised (each limit has its own test
# in the server's suite, crates/server/tests/abuse), for this server and for those the tests
# start themselves (helpers.mjs's startServer adds SERVER_LIMITS).
SERVER_LIMITS="--limit engines-per-client=1000 --limit engines=1000 \
  --limit analysis-boards-per-client=1000 --limit analysis-boards=1000 \
  --limit imports-per-client=1000 --limit imports=1000 --limit imports-per-minute=100000 \
  --limit challenges-per-client=1000 --limit puzzles-per-client=1000 --limit puzzles-per-hour=100000 \
  --limit state-bytes-per-sec=1000000000 --limit reviews-per-client=8 --limit reviews=8 \
  --limit proofs-per-client=8 --limit proofs=8"
export SERVER_LIMITS
# shellcheck disable=SC2086
$SERVER_CMD --addr 127.0.0.1:0 --db "$tmp/games.db" $SERVER_LIMITS > "$tmp/server.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 200); do grep -q 'http://' "$tmp/server.log" && break; sleep 0.1; done
BASE_URL="$(grep -o 'http://[^ ]*' "$tmp/server.log" | head -1)"
if [ -z "$BASE_URL" ]; then echo "server did not start:"; cat "$tmp/server.log"; exit 1; fi
export BASE_URL
echo "server: $SERVER_CMD at $BASE_URL"
status=0
# Two files at a time (BROWSER_CONCURRENCY): the tests mostly wait on pages and timers, and each
# finds its own games by id, not as the newest of the server's list.
node --test --test-concurrency="${BROWSER_CONCURRENCY:-2}" ${BROWSER_TESTS:-tests/browser/} || status=$?
exit $status
