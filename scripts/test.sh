#!/usr/bin/env bash
# The whole test suite: installs what the tests need (Debian packages, the
# Python venv), builds everything and runs every test of the workspace
# (unit tests, the front-end corpus, loader-level tests with C, Rust and
# pyopencl clients, clinfo, the stress test).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cargo build --workspace --all-targets
# CI shows only the tail of what a run prints: when a test fails, its
# failure (the test's own output, a signal, a panic) is printed again at the
# end, after every target's summary.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
cargo test --workspace --no-fail-fast 2>&1 | tee "$log" || rc=$?
if [ "$rc" -ne 0 ]; then
  echo
  echo "=== the failures of this run, again ==="
  awk '/^failures:$/,/^test result:/' "$log" | tail -n 300
  grep -E "panicked at|overflowed its stack|signal: |process didn't exit|error: test failed|^error: " "$log" | tail -n 60
fi
exit "$rc"
