#!/usr/bin/env bash
# Usage: scripts/vendors.sh debug|release
# Writes target/<profile>/vendors/cranecl.icd naming the built libcranecl.so and
# prints the folder, for OCL_ICD_VENDORS=<folder> (the loader then sees only cranecl).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-release}
dir="$PWD/target/$profile/vendors"
mkdir -p "$dir"
echo "$PWD/target/$profile/libcranecl.so" > "$dir/cranecl.icd"
echo "$dir"
