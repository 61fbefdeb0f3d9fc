// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: global pointer in the global space
global int * global ptr; // OK.
kernel void k(global int *a) { ptr = a; }
