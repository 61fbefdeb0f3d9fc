// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: constant
// constant.txt: constant variables must be initialised with compile-time constants
kernel void k(global int *out, int n)
{
    constant int c = n;
    out[0] = c;
}
