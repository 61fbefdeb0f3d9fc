// RUN: -cl-std=CL1.2
// EXPECT: ok
// global-1.x.txt: const __global is a read-only buffer
kernel void k(const __global int *in, __global int *out) { out[0] = in[0]; }
