// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: constant address space
// global-1.x.txt: all program-scope variables must be in __constant in 1.x
__global int *p;
kernel void k(void) { }
