// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: expected ';'
kernel void k(global int *out)
{
    int x = 1
    out[0] = x;
}
