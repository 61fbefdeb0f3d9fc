#!/usr/bin/env bash
# Register cranecl system-wide (needs root): installs the release ICD as
# /usr/local/lib/cranecl/libcranecl.so and /etc/OpenCL/vendors/cranecl.icd,
# where every OpenCL loader looks by default; and the `cranecl` command as
# /usr/local/bin/cranecl.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p cranecl -p cranecl-cli
built="${CARGO_TARGET_DIR:-target}/release"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO install -D -m 0755 "$built/libcranecl.so" /usr/local/lib/cranecl/libcranecl.so
$SUDO mkdir -p /etc/OpenCL/vendors
echo /usr/local/lib/cranecl/libcranecl.so | $SUDO tee /etc/OpenCL/vendors/cranecl.icd >/dev/null
$SUDO install -D -m 0755 "$built/cranecl" /usr/local/bin/cranecl
echo "cranecl registered in /etc/OpenCL/vendors/cranecl.icd; the cranecl command is /usr/local/bin/cranecl"
