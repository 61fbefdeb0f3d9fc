// RUN: -cl-std=CL1.2
// EXPECT: ok
// global-1.x.txt: program-scope variables in __constant
__constant int table[2] = { 3, 4 };
kernel void k(__global int *out) { out[0] = table[1]; }
