// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: #if
#if 1
kernel void k(void) { }
