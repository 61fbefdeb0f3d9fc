// RUN: -cl-std=CL1.2
// EXPECT: ok
// constant pointers to constant data, initialised with addresses of constants
constant int a[2] = { 1, 2 };
constant int b[2] = { 3, 4 };
constant int *constant tables[2] = { a, b };
kernel void k(global int *out) { out[0] = tables[1][0]; }
