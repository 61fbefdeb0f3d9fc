#!/usr/bin/env bash
# Runs cranecl's loader-facing conformance tests through the Khronos
# OpenCL-ICD-Loader instead of Debian's ocl-icd. The Khronos loader is not
# packaged in Debian: this script builds it with gcc (no cmake needed) from
# its public sources into target/khronos-loader/, outside the source tree's
# tracked files, then runs the tests with LD_LIBRARY_PATH pointing there.
#
# Sources: $KHRONOS_LOADER_SRC and $KHRONOS_HEADERS_SRC (checkouts of
# KhronosGroup/OpenCL-ICD-Loader and KhronosGroup/OpenCL-Headers); without
# them, shallow clones from GitHub into target/khronos-src/.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
out="$target/khronos-loader"
src="${KHRONOS_LOADER_SRC:-$target/khronos-src/OpenCL-ICD-Loader}"
hdr="${KHRONOS_HEADERS_SRC:-$target/khronos-src/OpenCL-Headers}"

if [ ! -f "$out/libOpenCL.so.1" ]; then
  for repo in OpenCL-ICD-Loader OpenCL-Headers; do
    dir="$target/khronos-src/$repo"
    case "$repo" in
      OpenCL-ICD-Loader) want="$src" ;;
      *) want="$hdr" ;;
    esac
    if [ ! -d "$want" ]; then
      mkdir -p "$target/khronos-src"
      git clone -q --depth 1 "https://github.com/KhronosGroup/$repo" "$dir"
    fi
  done
  mkdir -p "$out"
  # What CMake's configure step would write: glibc has secure_getenv.
  printf '#define HAVE_SECURE_GETENV\n' > "$out/icd_cmake_config.h"
  gcc -O2 -shared -fPIC -o "$out/libOpenCL.so.1" -Wl,-soname,libOpenCL.so.1 \
    -Wl,--version-script="$src/loader/linux/icd_exports.map" \
    -DCL_TARGET_OPENCL_VERSION=310 -DCL_NO_NON_ICD_DISPATCH_EXTENSION_PROTOTYPES \
    -DOPENCL_ICD_LOADER_VERSION_MAJOR=3 -DOPENCL_ICD_LOADER_VERSION_MINOR=1 \
    -DOPENCL_ICD_LOADER_VERSION_REV=0 -DCL_ENABLE_LAYERS -DCL_SHARED_BUILD \
    -I"$out" -I"$src/loader" -I"$src/include" -I"$hdr" \
    "$src"/loader/icd.c "$src"/loader/icd_dispatch.c "$src"/loader/icd_dispatch_generated.c \
    "$src"/loader/icd_trace.c "$src"/loader/linux/icd_linux.c \
    "$src"/loader/linux/icd_linux_envvars.c "$src"/loader/linux/icd_linux_library.c \
    -ldl -lpthread
  ln -sf libOpenCL.so.1 "$out/libOpenCL.so"
fi

# Every test that goes through a loader: the `loader::` half of the API
# suites, the clients (C, opencl3, clinfo) and the stress test. The
# `loader_in_use` check fails if libOpenCL.so.1 did not come from $out.
export LD_LIBRARY_PATH="$out${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CRANECL_EXPECT_LOADER="$out/libOpenCL.so.1"
exec cargo test -p cranecl-conformance --no-fail-fast \
  --test 'api_*' --test c_program --test opencl3_chain --test clinfo --test stress_loader \
  -- loader c_buffers opencl3 clinfo stress "$@"
