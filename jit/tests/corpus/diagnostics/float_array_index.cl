// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: integer
kernel void k(global int *out)
{
    out[1.5f] = 0;
}
