// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: static
static kernel void k(void) { }
