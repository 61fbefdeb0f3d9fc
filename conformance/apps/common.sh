# Sourced by the application benchmarks in this folder (not run by itself).
# Gives them: ROOT, OUT (target/apps, for builds and logs), need_debs (installs
# missing Debian packages, idempotent), vendors LABEL (a folder naming one
# platform, for OCL_ICD_VENDORS), PLATFORMS (cranecl and pocl, in the order a
# round runs them), ROUNDS, cpu_header, and ratio A B.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=$ROOT/target/apps
mkdir -p "$OUT"
ROUNDS=${ROUNDS:-3}
PLATFORMS=(cranecl pocl)

# need_debs PKG...: apt-get install the packages not installed yet.
need_debs() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
}

# The built cranecl (built here unless CRANECL_SO names one) and pocl.
need_debs ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers pocl-opencl-icd gcc
if [ -z "${CRANECL_SO:-}" ]; then
  (cd "$ROOT" && cargo build --release -q -p cranecl)
  CRANECL_SO=$ROOT/target/release/libcranecl.so
fi

# vendors cranecl|pocl: prints a folder whose only .icd names that platform.
vendors() {
  local dir=$ROOT/target/release/icd-vendors/$1
  mkdir -p "$dir"
  case $1 in
    cranecl) echo "$CRANECL_SO" > "$dir/cranecl.icd" ;;
    pocl) cp /etc/OpenCL/vendors/pocl.icd "$dir/pocl.icd" ;;
  esac
  echo "$dir"
}

cpu_header() {
  echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores available;" \
       "best of $ROUNDS alternating rounds (cranecl, pocl, cranecl, ...); a shared machine: timings are noisy"
}

# ratio A B: A / B with two decimals ("-" if either is missing or zero).
ratio() {
  awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else printf "-" }'
}
