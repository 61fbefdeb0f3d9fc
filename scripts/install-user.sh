#!/usr/bin/env bash
# Register cranecl for the current user, without root: builds the release ICD,
# copies it to ~/.local/lib/cranecl/ and writes a vendors folder holding
# cranecl.icd. Then `export OCL_ICD_VENDORS=~/.local/share/cranecl/vendors`
# (both ocl-icd and the Khronos loader honour it). Also installs the `cranecl`
# command (the ICD linked in, no loader needed) as ~/.local/bin/cranecl.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p cranecl -p cranecl-cli
built="${CARGO_TARGET_DIR:-target}/release"
lib="$HOME/.local/lib/cranecl"
vendors="$HOME/.local/share/cranecl/vendors"
mkdir -p "$lib" "$vendors"
install -m 0755 "$built/libcranecl.so" "$lib/libcranecl.so"
echo "$lib/libcranecl.so" > "$vendors/cranecl.icd"
install -D -m 0755 "$built/cranecl" "$HOME/.local/bin/cranecl"
echo "cranecl installed for ${USER:-$(id -un)}. To use it:"
echo "  export OCL_ICD_VENDORS=$vendors"
echo "The cranecl command is $HOME/.local/bin/cranecl (on PATH if ~/.local/bin is)."
