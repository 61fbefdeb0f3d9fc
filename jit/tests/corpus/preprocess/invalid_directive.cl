// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: invalid preprocessing directive
#frobnicate
kernel void k(void) { }
