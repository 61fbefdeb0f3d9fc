// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: #endif
kernel void k(void) { }
#endif
