#!/usr/bin/env bash
# Installs what cranecl's tests and benchmarks need on a fresh Debian machine:
# the ocl-icd loader and headers, clinfo, pocl (our correctness and speed peer),
# clang-14 (the front end's oracle), oclgrind (the oracle of `cranecl run`'s
# simulation files) and a Python venv with pyopencl.
# Idempotent: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(gcc libc6-dev ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers opencl-c-headers clinfo pocl-opencl-icd clang-14 oclgrind)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

venv=target/venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import pyopencl, numpy, pytest, mako, yaml" 2>/dev/null || \
  "$venv/bin/pip" install -q pyopencl numpy pytest mako pyyaml
