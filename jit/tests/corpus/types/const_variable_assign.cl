// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: const
kernel void k(global int *out)
{
    const int c = 1;
    c = 2;
    out[0] = c;
}
