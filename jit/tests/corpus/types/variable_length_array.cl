// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: variable length
kernel void k(global int *out, int n)
{
    int vla[n];
    out[0] = 0;
}
