// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: constant address space
int counter;
kernel void k(void) { }
