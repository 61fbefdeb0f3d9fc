// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: unterminated
#if 1
kernel void k(void) { }
