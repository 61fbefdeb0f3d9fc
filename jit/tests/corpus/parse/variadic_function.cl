// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: variadic
// variadic functions are not allowed in OpenCL C (printf is the exception)
int sum(int n, ...) { return n; }
kernel void k(void) { }
