// RUN: -cl-std=CL1.2
// EXPECT: ok
// an array parameter is a pointer to global
kernel void k(global int out[16])
{
    out[0] = 1;
}
