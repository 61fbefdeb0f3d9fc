// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef int myint;
typedef int myint;
kernel void k(global myint *out) { out[0] = 1; }
