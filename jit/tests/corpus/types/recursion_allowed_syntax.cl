// RUN: -cl-std=CL1.2
// EXPECT: ok
int f(int n);
kernel void k(global int *out) { out[0] = 0; }
