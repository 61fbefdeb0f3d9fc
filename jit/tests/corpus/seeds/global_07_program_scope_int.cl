// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: program-scope global int
global int foo; // OK.
kernel void k(global int *out) { out[0] = foo++; }
