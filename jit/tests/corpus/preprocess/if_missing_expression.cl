// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: expression
#if
#endif
kernel void k(void) { }
