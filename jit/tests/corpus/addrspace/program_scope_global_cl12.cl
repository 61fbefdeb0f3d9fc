// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: constant address space
// program-scope global variables need OpenCL C 2.0
global int counter;
kernel void k(void) { }
