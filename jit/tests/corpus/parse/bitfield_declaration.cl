// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: bit-field
// bit-fields are not supported in OpenCL C
struct flags { unsigned a : 1; unsigned b : 3; };
kernel void k(void) { }
