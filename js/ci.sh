#!/usr/bin/env bash
# The JavaScript package in CI, on a fresh machine: installs what the build needs (Debian's
# wasm toolchain when rustup has no wasm32 target, wasm-bindgen-cli at the pinned version,
# Chromium for the script-tag test), then `npm ci`, `npm run build` and `npm test` in js/ (the
# differential, one thread of ~10 min, started first, beside the other files).
# `bash js/ci.sh setup` only installs (the static site's build needs the same toolchain).
set -euo pipefail
setup_only=""
case "${1-}" in
    "") ;;
    setup) setup_only=1 ;;
    -h | --help) sed -n '2,6s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "usage: bash js/ci.sh [setup] (see --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
need=()
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    for p in rustc-web cargo-web rust-web-src lld-22; do
        dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
    done
fi
command -v chromium >/dev/null 2>&1 || need+=(chromium fonts-dejavu-core)
if [ "${#need[@]}" -gt 0 ]; then
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi
export PATH="$HOME/.cargo/bin:$PATH"
pinned=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' ../crates/wasm/Cargo.toml)
if ! { command -v wasm-bindgen >/dev/null 2>&1 && wasm-bindgen --version | grep -q " $pinned$"; }; then
    # --locked fails: one locked dependency of the CLI is not on the registry any more.
    cargo install wasm-bindgen-cli --version "$pinned"
fi
[ -z "$setup_only" ] || exit 0
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
npm ci --no-audit --no-fund
npm run build
# `npm test` (node --test test/*.test.mjs) runs one file at a time on two cores: here the
# differential, the longest file by far, runs in a process of its own beside the others (its
# output printed after theirs), so that it starts at once and the others take the other core.
diff_log="$(mktemp)"
trap 'rm -f "$diff_log"' EXIT
node --test test/differential.test.mjs > "$diff_log" 2>&1 &
diff_pid=$!
others=()
for f in test/*.test.mjs; do [ "$f" = test/differential.test.mjs ] || others+=("$f"); done
status=0
node --test "${others[@]}" || status=$?
diff_status=0
wait "$diff_pid" || diff_status=$?
echo "-- test/differential.test.mjs (exit $diff_status):"
cat "$diff_log"
[ "$status" -eq 0 ] && [ "$diff_status" -eq 0 ]
