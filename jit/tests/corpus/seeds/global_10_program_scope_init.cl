// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: program-scope global initialised
global int baz = 12; // OK. Initialization is allowed
kernel void k(global int *out) { out[0] = baz; }
