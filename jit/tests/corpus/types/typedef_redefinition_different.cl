// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: myint
typedef int myint;
typedef float myint;
kernel void k(void) { }
