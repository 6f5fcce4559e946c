#!/usr/bin/env bash
# The JavaScript package in CI, on a fresh machine: installs what the build needs (Debian's
# wasm toolchain when rustup has no wasm32 target, wasm-bindgen-cli at the pinned version,
# Chromium for the script-tag test), then `npm ci`, `npm run build` and `npm test` in js/.
set -euo pipefail
case "${1-}" in
    "") ;;
    -h | --help) sed -n '2,4s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "usage: bash js/ci.sh (no arguments; see --help)" >&2; exit 2 ;;
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
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
npm ci --no-audit --no-fund
npm run build
npm test
