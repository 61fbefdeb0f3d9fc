// RUN: -cl-std=CL1.2 -cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations -cl-finite-math-only -cl-fast-relaxed-math -cl-denorms-are-zero
// EXPECT: ok
// the math-optimisation options are accepted
kernel void k(global float *out, float x) { out[0] = x * x + 1.0f; }
