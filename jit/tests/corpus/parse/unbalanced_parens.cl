// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: expected ')'
kernel void k(global int *out)
{
    out[0] = (1 + (2 * 3);
}
