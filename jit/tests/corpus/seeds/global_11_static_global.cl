// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: static global
static global int bat; // OK. Internal linkage
kernel void k(global int *out) { out[0] = bat; }
