#!/usr/bin/env bash
# Runs the browser tests of the static site: builds it (`npm run build:site` in js/), serves
# js/site with `python3 -m http.server` on a free port (no chess5d process), runs
# `node --test` on tests/browser/static/*.static.mjs and the served GUI's tests that apply (or the files
# given) against it and exits with node's status.
set -euo pipefail
cd "$(dirname "$0")/../../.."

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
[ "${SKIP_BUILD:-}" = 1 ] || (cd js && npm run build:site)

tmp="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server --bind 127.0.0.1 --directory js/site "$port" > "$tmp/http.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.1; done
export BASE_URL="http://127.0.0.1:$port" SITE=static
echo "static site: js/site at $BASE_URL"
# *.static.mjs: not picked up by `node --test tests/browser/` (the served GUI's run). The served
# GUI's tests that need nothing the static site lacks run here too (helpers.mjs: SITE=static).
if [ $# -eq 0 ]; then
  set -- tests/browser/static/*.static.mjs tests/browser/gui.test.mjs tests/browser/camera.test.mjs \
    tests/browser/puzzle-maker.test.mjs tests/browser/multiverse.test.mjs tests/browser/landing.test.mjs \
    tests/browser/player.test.mjs tests/browser/analysis-lines.test.mjs tests/browser/camera-walk.test.mjs \
    tests/browser/timeline-rail.test.mjs tests/browser/thinking.test.mjs tests/browser/settings.test.mjs \
    tests/browser/home-forms.test.mjs tests/browser/check-arrows.test.mjs tests/browser/variations.test.mjs \
    tests/browser/computer-review.test.mjs tests/browser/share-link.test.mjs tests/browser/polish.test.mjs \
    tests/browser/learn.test.mjs tests/browser/issue48.test.mjs tests/browser/axe.test.mjs \
    tests/browser/mistakes.test.mjs tests/browser/check-markers.test.mjs tests/browser/phone-review.test.mjs \
    tests/browser/keyboard.test.mjs tests/browser/overlays.test.mjs tests/browser/phone-text.test.mjs \
    tests/browser/proven-mate.test.mjs tests/browser/side-panel.test.mjs
fi
node --test --test-concurrency="${BROWSER_CONCURRENCY:-2}" "$@"
