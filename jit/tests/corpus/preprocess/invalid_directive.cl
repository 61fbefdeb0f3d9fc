// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: frobnicate
#frobnicate
kernel void k(void) { }
