// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: expected
kernel void k(void) { }
)
