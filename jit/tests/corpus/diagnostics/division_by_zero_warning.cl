// RUN: -cl-std=CL1.2
// EXPECT: ok
// WARNING: 6: division by zero
kernel void k(global int *out)
{
    out[0] = 1 / 0;
}
