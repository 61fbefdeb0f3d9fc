// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 5: initialized
// constant.txt: constant variables are required to be initialized
constant int c;
kernel void k(global int *out) { out[0] = c; }
