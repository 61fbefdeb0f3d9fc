// RUN: -cl-std=CL1.2 -w
// EXPECT: ok
#warning nobody sees this
kernel void k(void) { }
