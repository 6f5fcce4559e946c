#!/usr/bin/env bash
# The Python package in CI: build the abi3 wheel with maturin (release profile: the engine and
# the oracle tests need optimised code; maturin resolves its own features, serde_json's
# preserve_order among them, so this build is its own), install it in a fresh virtual
# environment, check the type stubs against it (mypy.stubtest) and run pytest.
#
# CHESS5D_BIN names the chess5d binary the differential tests compare with (default: the one
# `cargo test` built; it is built if missing). Exits non-zero on any failure, and when pytest
# collects no test at all.
set -euo pipefail
case "${1-}" in
    "") ;;
    -h | --help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "usage: bash crates/python/ci.sh (no arguments; see --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")"
repo=$(cd ../.. && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/build"
"$work/build/bin/pip" install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"
"$work/build/bin/maturin" build --release --strip --out "$work/wheels"

# A fresh environment with only the wheel and pytest: the tests import the installed package.
python3 -m venv "$work/test"
"$work/test/bin/pip" install --quiet --disable-pip-version-check pytest mypy "$work"/wheels/chess5d-*.whl

# The type stubs must describe the module as built (run outside the source tree).
(cd "$work" && "$work/test/bin/python" -m mypy.stubtest chess5d)

bin=${CHESS5D_BIN:-$repo/target/debug/chess5d}
if [ ! -x "$bin" ]; then
    (cd "$repo" && cargo build --quiet -p chess5d)
fi

status=0
CHESS5D_BIN=$bin "$work/test/bin/python" -m pytest -p no:cacheprovider tests || status=$?
case $status in
    0) ;;
    5) echo "crates/python/ci.sh: pytest collected no test" >&2; exit 1 ;;
    *) echo "crates/python/ci.sh: pytest failed (exit $status)" >&2; exit "$status" ;;
esac
