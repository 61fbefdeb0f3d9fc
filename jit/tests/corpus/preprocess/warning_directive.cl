// RUN: -cl-std=CL1.2
// EXPECT: ok
// WARNING: 4: this kernel is slow
#warning this kernel is slow
kernel void k(void) { }
