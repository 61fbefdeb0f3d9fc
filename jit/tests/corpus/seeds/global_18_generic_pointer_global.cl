// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: generic pointer in the global space
int * global ptr; // OK.
kernel void k(global int *a) { ptr = a; }
