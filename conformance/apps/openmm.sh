#!/usr/bin/env bash
# OpenMM 7.7 (python3-simtk, libopenmm-plugins) on cranecl beside pocl: a
# 3 nm TIP3P water box with PME in single precision (openmm_water.py), its
# forces checked against OpenMM's Reference platform, STEPS (300) timed steps;
# prints ns/day, the best of ROUNDS (3) alternating rounds, each a fresh
# process per platform under Debian's /usr/bin/python3. TIMEOUT (600 s) bounds
# each run.
#
#   conformance/apps/openmm.sh             # ROUNDS=3 STEPS=300
source "$(dirname "$0")/common.sh"
need_debs python3-simtk libopenmm-plugins python3-numpy
STEPS=${STEPS:-300}
TIMEOUT=${TIMEOUT:-600}
PY=/usr/bin/python3

declare -A best err ctx
failed=0
for round in $(seq "$ROUNDS"); do
  for p in "${PLATFORMS[@]}"; do
    log=$OUT/openmm.$p.$round.log
    if ! OCL_ICD_VENDORS=$(vendors "$p") timeout "$TIMEOUT" \
        "$PY" "$ROOT/conformance/apps/openmm_water.py" "$STEPS" > "$log" 2> "$log.err"; then
      echo "round $round, $p: FAILED, see $log.err:" >&2
      tail -n 3 "$log.err" >&2
      failed=1
      continue
    fi
    read -r _ atoms nsday e cs < <(grep '^openmm ' "$log")
    err[$p]=$e
    ctx[$p]=$cs
    cur=${best[$p]:-0}
    best[$p]=$(awk -v a="$cur" -v b="$nsday" 'BEGIN { print (b > a ? b : a) }')
  done
done

cpu_header
echo "# OpenMM $($PY -c 'import openmm; print(openmm.__version__)'), TIP3P water box, ${atoms:-?} atoms, PME, single precision, 2 fs steps; ns/day (higher is better)"
printf '%-8s %10s %24s %22s\n' platform ns/day "force error vs Reference" "context+first forces"
for p in "${PLATFORMS[@]}"; do
  printf '%-8s %10s %24s %20ss\n' "$p" "${best[$p]:-FAILED}" "${err[$p]:--}" "${ctx[$p]:--}"
done
echo "cranecl/pocl: $(ratio "${best[cranecl]:-}" "${best[pocl]:-}")"
exit $failed
