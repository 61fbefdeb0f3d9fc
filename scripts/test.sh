#!/usr/bin/env bash
# The whole test suite: installs what the tests need (Debian packages, the
# Python venv), builds everything and runs every test of the workspace
# (unit tests, the front-end corpus, loader-level tests with C, Rust and
# pyopencl clients, clinfo, the stress test).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cargo build --workspace --all-targets
cargo test --workspace --no-fail-fast
