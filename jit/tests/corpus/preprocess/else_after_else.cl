// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: #else
#if 0
#else
#else
#endif
kernel void k(void) { }
