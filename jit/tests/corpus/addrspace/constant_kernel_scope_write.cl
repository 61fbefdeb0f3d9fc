// RUN: -cl-std=CL3.0
// EXPECT: error
// ERROR: 7: const
kernel void k(global int *out)
{
    constant int t = 3;
    t += 1;
    out[0] = t;
}
