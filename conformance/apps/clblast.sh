#!/usr/bin/env bash
# CLBlast SGEMM on cranecl beside pocl: CLBlastSgemm (libclblast-dev) called
# from a small C driver (clblast_sgemm.c, built here), C = A * B row-major for
# N = 512, 1024, 2048 (SIZES="..." to change), each result checked against a
# double-precision CPU dot product on 4096 sampled elements. Prints GFLOP/s,
# the best of ROUNDS (3) alternating rounds, each round a fresh process per
# platform (warm-up call, then REPS timed calls).
#
#   conformance/apps/clblast.sh            # ROUNDS=3 REPS=2 SIZES="512 1024 2048"
source "$(dirname "$0")/common.sh"
need_debs libclblast-dev
SIZES=${SIZES:-512 1024 2048}
REPS=${REPS:-2}
TIMEOUT=${TIMEOUT:-600}

driver=$OUT/clblast_sgemm
src=$ROOT/conformance/apps/clblast_sgemm.c
if [ ! -x "$driver" ] || [ "$src" -nt "$driver" ]; then
  gcc -O2 -Wall -o "$driver" "$src" -lclblast -lOpenCL -lm
fi

declare -A best
failed=0
for round in $(seq "$ROUNDS"); do
  for p in "${PLATFORMS[@]}"; do
    log=$OUT/clblast.$p.$round.log
    # shellcheck disable=SC2086
    if ! OCL_ICD_VENDORS=$(vendors "$p") timeout "$TIMEOUT" "$driver" "$REPS" $SIZES > "$log" 2> "$log.err"; then
      echo "round $round, $p: FAILED (exit $?), see $log.err:" >&2
      tail -n 5 "$log.err" >&2
      failed=1
    fi
    while read -r _ n _ gflops; do
      cur=${best[$p,$n]:-0}
      best[$p,$n]=$(awk -v a="$cur" -v b="$gflops" 'BEGIN { print (b > a ? b : a) }')
    done < <(grep '^sgemm ' "$log")
  done
done

cpu_header
echo "# CLBlast $(dpkg-query -W -f='${Version}' libclblast1) CLBlastSgemm, row-major NxN, GFLOP/s (higher is better), results checked"
printf '%-6s %14s %14s %16s\n' N "cranecl GF/s" "pocl GF/s" "cranecl/pocl"
for n in $SIZES; do
  printf '%-6s %14s %14s %16s\n' "$n" "${best[cranecl,$n]:-FAILED}" "${best[pocl,$n]:-FAILED}" \
    "$(ratio "${best[cranecl,$n]:-}" "${best[pocl,$n]:-}")"
done
exit $failed
