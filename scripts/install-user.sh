#!/usr/bin/env bash
# Register cranecl for the current user, without root: builds the release ICD,
# copies it to ~/.local/lib/cranecl/ and writes a vendors folder holding
# cranecl.icd. Then `export OCL_ICD_VENDORS=~/.local/share/cranecl/vendors`
# (both ocl-icd and the Khronos loader honour it).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p cranecl
lib="$HOME/.local/lib/cranecl"
vendors="$HOME/.local/share/cranecl/vendors"
mkdir -p "$lib" "$vendors"
install -m 0755 target/release/libcranecl.so "$lib/libcranecl.so"
echo "$lib/libcranecl.so" > "$vendors/cranecl.icd"
echo "cranecl installed for $USER. To use it:"
echo "  export OCL_ICD_VENDORS=$vendors"
