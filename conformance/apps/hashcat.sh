#!/usr/bin/env bash
# hashcat's benchmark on cranecl beside pocl: `hashcat --force -b -m MODE -D 1`
# for MD5 (0), SHA-256 (1400) and SHA-512 (1700) (MODES="..." to change).
# hashcat runs its self-test (known hashes cracked by the same kernels) before
# each benchmark; a mode whose self-test fails, or that prints no speed, is
# reported as FAILED with hashcat's message. Prints hashes per second, the
# best of ROUNDS (3) alternating rounds; each run is bounded by TIMEOUT (600 s;
# pocl's first build of hashcat's kernels takes minutes, later runs reuse
# hashcat's kernel cache).
#
#   conformance/apps/hashcat.sh            # ROUNDS=3 MODES="0 1400 1700"
source "$(dirname "$0")/common.sh"
need_debs hashcat
MODES=${MODES:-0 1400 1700}
TIMEOUT=${TIMEOUT:-600}

declare -A best why
for round in $(seq "$ROUNDS"); do
  for p in "${PLATFORMS[@]}"; do
    for m in $MODES; do
      log=$OUT/hashcat.$p.m$m.$round.log
      rc=0
      OCL_ICD_VENDORS=$(vendors "$p") timeout "$TIMEOUT" \
        hashcat --force -b -m "$m" -D 1 --machine-readable > "$log" 2>&1 || rc=$?
      # Machine-readable result: DEVICE:MODE:...:MS:HASHES_PER_SECOND
      speed=$(awk -F: -v m="$m" '$2 == m && NF == 6 { print $6 }' "$log" | tail -n 1)
      fail=""
      if grep -qi 'self-test failed' "$log"; then
        # With --force hashcat goes on and prints a speed; it does not count.
        fail="FAILED: $(grep -i 'self-test failed' "$log" | head -n 1) (the speed it printed anyway, ${speed:-none} H/s, is not counted)"
      elif [ "$rc" -ne 0 ] || [ -z "$speed" ]; then
        fail="FAILED (exit $rc): $(grep -iE 'error|fail' "$log" | head -n 2 | tr '\n' ' ')"
      fi
      if [ -n "$fail" ]; then
        why[$p,$m]=$fail
        echo "round $round, $p, -m $m: $fail (log: $log)" >&2
        continue
      fi
      cur=${best[$p,$m]:-0}
      best[$p,$m]=$(awk -v a="$cur" -v b="$speed" 'BEGIN { print (b > a ? b : a) }')
    done
  done
done

cpu_header
echo "# hashcat $(dpkg-query -W -f='${Version}' hashcat) --force -b -m MODE -D 1 (self-test included), hashes/s (higher is better)"
human() { awk -v h="${1:-}" 'BEGIN { if (h == "") print "FAILED"; else if (h >= 1e6) printf "%.2f MH/s", h / 1e6; else if (h >= 1e3) printf "%.2f kH/s", h / 1e3; else printf "%.0f H/s", h }'; }
printf '%-6s %-10s %16s %16s %14s\n' mode hash cranecl pocl cranecl/pocl
failed=0
for m in $MODES; do
  case $m in 0) name=MD5 ;; 1400) name=SHA-256 ;; 1700) name=SHA-512 ;; *) name="" ;; esac
  printf '%-6s %-10s %16s %16s %14s\n' "$m" "$name" "$(human "${best[cranecl,$m]:-}")" "$(human "${best[pocl,$m]:-}")" \
    "$(ratio "${best[cranecl,$m]:-}" "${best[pocl,$m]:-}")"
  for p in "${PLATFORMS[@]}"; do
    if [ -z "${best[$p,$m]:-}" ]; then
      echo "  $p -m $m: ${why[$p,$m]}"
      failed=1
    fi
  done
done
exit $failed
