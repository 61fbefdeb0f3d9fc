// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: static global int
static global int foo; // OK.
kernel void k(global int *out) { out[0] = foo; }
