// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: conflicting types
int f(int a);
float f(int a) { return 1.0f; }
kernel void k(void) { }
