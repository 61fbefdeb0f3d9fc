// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: division by zero
#if 1 / 0
#endif
kernel void k(void) { }
