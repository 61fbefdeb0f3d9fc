// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: unterminated
kernel void k(void) { }
/* never closed
