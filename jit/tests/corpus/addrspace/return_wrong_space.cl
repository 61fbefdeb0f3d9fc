// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: address space
global int *f(local int *p) { return p; }
kernel void k(void) { }
