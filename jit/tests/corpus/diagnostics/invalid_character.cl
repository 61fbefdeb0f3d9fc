// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: '@'
kernel void k(global int *out)
{
    out[0] = 1 @ 2;
}
