#!/usr/bin/env bash
# Seeds the fuzz corpus (corpus/compile/) from the front end's test corpus:
# each program, prefixed with the selector byte of its -cl-std (see
# fuzz_targets/compile.rs: 0 = CL1.2, 1 = CL2.0, 2 = CL3.0).
set -euo pipefail
cd "$(dirname "$0")"
out=corpus/compile
mkdir -p "$out"
for f in ../tests/corpus/*/*.cl; do
  case "$(head -1 "$f")" in
    *CL2.0*) sel='\x01' ;;
    *CL3.0*) sel='\x02' ;;
    *) sel='\x00' ;;
  esac
  name=$(basename "$(dirname "$f")")_$(basename "$f" .cl)
  { printf "$sel"; cat "$f"; } > "$out/$name"
done
echo "seeded $(ls "$out" | wc -l) inputs into $out"
