// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: program-scope variable defaults to global
int foo; // OK. Declared in the global address space
kernel void k(global int *out) { out[0] = foo; }
