// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: REQUIRED must be defined
#ifndef REQUIRED
#error REQUIRED must be defined
#endif
kernel void k(void) { }
