#!/usr/bin/env bash
# cranecl's main job: build the ICD and the example host programs (release),
# point the system's OpenCL loader at cranecl alone, and run the examples.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ldconfig -p 2>/dev/null | grep -q libOpenCL.so.1; then
  bash scripts/install-deps.sh
fi
cargo build --release -p cranecl -p cranecl-examples -p cranecl-cli
export OCL_ICD_VENDORS="$(bash scripts/vendors.sh release)"
echo "== OCL_ICD_VENDORS=$OCL_ICD_VENDORS"
echo "== hello: platform, device and a buffer round trip through the loader"
./target/release/hello
echo "== vector_add: 1M floats added by an OpenCL C kernel, every sum checked"
./target/release/vector_add
echo "== mandelbrot: rendered by a kernel, written to target/mandelbrot.png"
./target/release/mandelbrot target/mandelbrot.png
echo "== blur: a Gaussian blur of it with images and a sampler, checked, written to target/mandelbrot-blur.png"
./target/release/blur target/mandelbrot.png target/mandelbrot-blur.png 3
echo "== sgemm: 1024^3 with 16x16 local tiles"
./target/release/sgemm
echo "== cranecl run: one kernel from an Oclgrind simulation file, no host program"
./target/release/cranecl run cli/tests/sim/vecadd.sim
