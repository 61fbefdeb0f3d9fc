// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: indirection
kernel void k(global int *out, int a)
{
    out[0] = *a;
}
